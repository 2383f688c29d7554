import { AccessLevel, type Actor } from '@anvil/auth';
import { startGateway, type RunningGateway } from '@anvil/gateway';
import { identityService } from '@anvil/identity';
import { freePort, startService, TEST_INTERNAL_TOKEN, testKeys, type TestService } from '@anvil/testing';
import { startRegistry, type Registry } from './helpers';

/** Identity, registry and the real gateway in this process, wired as in production (signed contexts, HTTP). */
export interface MiniFleet {
  url: string;
  identity: TestService;
  registry: Registry;
  gateway: RunningGateway;
  root: Actor;
  stop(): Promise<void>;
}

/** The registry's storage settings, for the gateway. */
function storageEnv(registry: Registry): Record<string, string> {
  const c = registry.deps.config;
  const all: Record<string, string | boolean | null | undefined> = {
    STORAGE_DRIVER: c.STORAGE_DRIVER, STORAGE_DIR: c.STORAGE_DIR, S3_ENDPOINT: c.S3_ENDPOINT, S3_BUCKET: c.S3_BUCKET, S3_REGION: c.S3_REGION,
    S3_ACCESS_KEY_ID: c.S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: c.S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE: c.S3_FORCE_PATH_STYLE,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, String(v)]));
}

/** Starts the three with the gateway on a known port (so PUBLIC_URL is its own URL). */
export async function startMiniFleet(registryEnv: Record<string, string> = {}, gatewayEnv: Record<string, string> = {}): Promise<MiniFleet> {
  const identity = await startService(identityService);
  const registry = await startRegistry({ IDENTITY_URL: identity.url, ...registryEnv });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gateway = await startGateway({
    port,
    env: {
      PORT: String(port),
      PUBLIC_URL: url,
      GATEWAY_PRIVATE_KEY: testKeys.privateKey,
      INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN,
      IDENTITY_URL: identity.url,
      REGISTRY_URL: registry.url,
      CONAN_JWT_SECRET: 'test-conan-secret',
      // accelerated transfers: the gateway shares the registry's storage, as in every deployment
      ...storageEnv(registry),
      LOG_LEVEL: 'silent',
      AUTH_CACHE_TTL_MS: '0',
      ...gatewayEnv,
    },
  });
  const row = await identity.deps.db('users').where({ username: 'root' }).first();
  const root: Actor = { id: Number(row.id), username: 'root', name: row.name, admin: true, state: 'active' };
  return {
    url,
    identity,
    registry,
    gateway,
    root,
    async stop() {
      await gateway.stop();
      await registry.stop();
      await identity.stop();
    },
  };
}

/** A user with a private project of their own and an `api` personal access token, made through identity. */
export async function userWithProject(f: MiniFleet, username: string, projectPath: string, visibility: 'private' | 'public' = 'private') {
  const u = await f.identity.as({ user: f.root }).post('/api/v4/users').send({ username, name: username, email: `${username}@example.com`, password: 'S3cure-pass-phrase!', skip_confirmation: true }).expect(201);
  const user: Actor = { id: u.body.id, username, name: username, admin: false, state: 'active' };
  const p = await f.identity.as({ user }).post('/api/v4/projects').send({ name: projectPath, path: projectPath, visibility }).expect(201);
  const t = await f.identity.as({ user: f.root }).post(`/api/v4/users/${user.id}/personal_access_tokens`).send({ name: 'conan', scopes: ['api'] }).expect(201);
  return { user, projectId: p.body.id as number, fullPath: p.body.path_with_namespace as string, token: t.body.token as string, access: AccessLevel.OWNER };
}

/** `Authorization: Basic` for `user:secret`. */
export function basic(user: string, secret: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` };
}

/** A registry JWT for a user's token, from `users/authenticate` through the gateway. */
export async function registryJwt(f: MiniFleet, projectId: number, username: string, token: string): Promise<string> {
  return (await fetch(`${f.url}/api/v4/projects/${projectId}/packages/conan/v2/users/authenticate`, { headers: basic(username, token) })).text();
}

/**
 * The gateway's count of upload bodies it is still storing (`gateway_upload_bodies_receiving`; each
 * holds a descriptor or an S3 upload until it settles), once they have had time to settle: a request
 * may still be on its way through authentication when its client sees an answer or leaves.
 */
export async function uploadsStillReceiving(f: MiniFleet): Promise<number> {
  const receiving = async () => Number(/^gateway_upload_bodies_receiving (\d+)$/m.exec(await (await fetch(`${f.url}/metrics`)).text())?.[1]);
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 50 && (await receiving()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return receiving();
}

