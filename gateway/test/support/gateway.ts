import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { TEST_BASE_URL, TEST_INTERNAL_TOKEN, testKeys } from '@anvil/testing';
import { RunningGateway, SERVICES, startGateway, StartGatewayOptions } from '../../src';
import type { ServiceName } from '../../src/routes';

/** Starts a gateway on a free port in front of `upstreams` (service name → base URL), signing with the test key. */
export function startTestGateway(upstreams: Partial<Record<ServiceName, string>>, env: Record<string, string> = {}, opts: StartGatewayOptions = {}): Promise<RunningGateway> {
  const urls: Record<string, string> = {};
  for (const [name, url] of Object.entries(upstreams)) urls[SERVICES[name as ServiceName].urlVariable] = url;
  return startGateway({
    port: 0,
    ...opts,
    env: {
      GATEWAY_PRIVATE_KEY: testKeys.privateKey,
      INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN,
      CONAN_JWT_SECRET: 'test-conan-secret',
      PUBLIC_URL: TEST_BASE_URL,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // these upstreams are stand-ins that stream bodies; tests of accelerated transfers turn it on
      ACCELERATED_TRANSFERS: 'false',
      // stopping a test gateway cuts what is left at once; shutdown tests set a grace
      SHUTDOWN_GRACE_MS: '0',
      ...urls,
      ...env,
    },
  });
}

/** A loopback port with nothing listening on it. */
export async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Resolves with the response once headers arrive (body left unread). */
export function responseOf(req: http.ClientRequest): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
}

/** Reads a response body fully. */
export async function bodyOf(res: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The first `event` emitted by `em` whose value satisfies `pred`, or a rejection after `ms`. */
export function waitFor<T>(em: NodeJS.EventEmitter, event: string, pred: (v: T) => boolean = () => true, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      em.off(event, on);
      reject(new Error(`timed out waiting for ${event}`));
    }, ms);
    const on = (v: T) => {
      if (!pred(v)) return;
      clearTimeout(timer);
      em.off(event, on);
      resolve(v);
    };
    em.on(event, on);
  });
}
