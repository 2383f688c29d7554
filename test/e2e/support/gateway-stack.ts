import { generateToken } from '@anvil/auth';
import { startService, TestService } from '@anvil/testing';
import { identityService } from '@anvil/identity';
import type { RunningGateway, ServiceName } from '@anvil/gateway';
import { Echo, startEcho } from '../../../gateway/test/support/echo';
import { startTestGateway } from '../../../gateway/test/support/gateway';

/** The real identity service, an echo service for every other upstream, and the gateway in front. */
export interface Stack {
  identity: TestService;
  echoes: Record<Exclude<ServiceName, 'identity'>, Echo>;
  gw: RunningGateway;
  url: string;
  adminToken: string;
  conanSecret: string;
  stop(): Promise<void>;
}

const OTHERS = ['registry', 'project-transfer', 'work-items', 'pipelines', 'alerting'] as const;

/** Starts the stack; the gateway hears identity's events on identity's (in-process) bus. */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const adminToken = generateToken();
  const conanSecret = generateToken('conan-');
  const identity = await startService(identityService, { env: { ADMIN_TOKEN: adminToken } });
  const echoes = Object.fromEntries(await Promise.all(OTHERS.map(async (s) => [s, await startEcho(s)] as const))) as Stack['echoes'];
  const upstreams = { identity: identity.url, ...Object.fromEntries(OTHERS.map((s) => [s, echoes[s].url])) };
  const gw = await startTestGateway(upstreams, { CONAN_JWT_SECRET: conanSecret, ...env }, { bus: identity.deps.bus });
  return {
    identity,
    echoes,
    gw,
    url: gw.url,
    adminToken,
    conanSecret,
    async stop() {
      await gw.stop();
      await Promise.all(Object.values(echoes).map((e) => e.stop()));
      await identity.stop();
    },
  };
}
