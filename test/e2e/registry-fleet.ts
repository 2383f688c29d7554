import { AccessLevel, type Actor } from '@anvil/auth';
import { type RunningGateway, startGateway } from '@anvil/gateway';
import { identityService } from '@anvil/identity';
import { registryService } from '@anvil/registry';
import { startLocalFleet, type TestService } from '@anvil/testing';
import type { Registry } from '../../services/registry/test/helpers';

/** Identity, registry and the real gateway in this process, wired as in production (signed contexts, HTTP). */
export interface MiniFleet {
  url: string;
  identity: TestService;
  registry: Registry;
  gateway: RunningGateway;
  root: Actor;
  stop(): Promise<void>;
}

/** The storage settings among `env`: the gateway stores and sends the registry's files, so it gets the same. */
function storageEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('STORAGE_') || k.startsWith('S3_')));
}

/** Starts the three (`startLocalFleet`), with extra registry and gateway settings as given; the gateway asks identity about every credential (no auth cache). */
export async function startMiniFleet(registryEnv: Record<string, string> = {}, gatewayEnv: Record<string, string> = {}): Promise<MiniFleet> {
  const fleet = await startLocalFleet({
    services: { identity: identityService, registry: registryService },
    startGateway,
    serviceEnv: { registry: registryEnv },
    gatewayEnv: { ...storageEnv(registryEnv), AUTH_CACHE_TTL_MS: '0', ...gatewayEnv },
  });
  const { identity, registry } = fleet.services;
  const row = await identity.deps.db('users').where({ username: 'root' }).first();
  const root: Actor = { id: Number(row.id), username: 'root', name: row.name, admin: true, state: 'active' };
  return { url: fleet.url, identity, registry, gateway: fleet.gateway, root, stop: fleet.stop };
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

