import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Actor, INTERNAL_TOKEN_HEADER, type ProjectScope } from '@anvil/auth';
import { identityService } from '@anvil/identity';
import { startService, TEST_INTERNAL_TOKEN, type TestService, uniqueName } from '@anvil/testing';
import { workItemsService } from '@anvil/work-items';
import { projectTransferService } from '../../src';

/** identity, work-items and project-transfer in this process, on one event exchange (RabbitMQ when reachable) and one storage directory. */
export interface TransferFleet {
  identity: TestService;
  workItems: TestService;
  transfer: TestService;
  storageDir: string;
  /** The events exchange the three services share. */
  exchange: string;
  root(): Promise<Actor>;
  makeUser(attrs?: Record<string, unknown>): Promise<Actor>;
  makeProject(owner: Actor, attrs?: Record<string, unknown>): Promise<{ id: number; path_with_namespace: string; name: string; description: string | null; created_at: string }>;
  addMember(projectId: number, user: Actor, level: number): Promise<void>;
  scope(projectId: number, user: Actor | null): Promise<ProjectScope>;
  stop(): Promise<void>;
}

/** The parts this fleet's services produce (pipelines' parts are tested in the pipelines service). */
const FLEET_PARTS = { EXPORT_PARTS: 'identity,work-items', IMPORT_PARTS: 'identity,work-items' };

let seq = 0;
const unique = (prefix: string) => `${prefix}${++seq}${Math.random().toString(36).slice(2, 6)}`;

/** Starts the three services an export needs; `transferEnv` configures project-transfer, `partsEnv` identity and work-items. */
export async function startTransferFleet(transferEnv: Record<string, string> = {}, partsEnv: Record<string, string> = {}): Promise<TransferFleet> {
  const storageDir = mkdtempSync(path.join(tmpdir(), 'anvil-transfer-'));
  const common = { EVENTS_EXCHANGE: `${uniqueName('xfer')}.events`, STORAGE_DIR: storageDir };
  const parts = { ...common, ...partsEnv };
  const identity = await startService(identityService, { amqp: true, env: parts });
  const workItems = await startService(workItemsService, { amqp: true, env: { ...parts, IDENTITY_URL: identity.url } });
  const transfer = await startService(projectTransferService, { amqp: true, env: { ...common, IDENTITY_URL: identity.url, ...FLEET_PARTS, ...transferEnv } });
  const internal = (p: string) => identity.raw().get(`/internal${p}`).set(INTERNAL_TOKEN_HEADER, TEST_INTERNAL_TOKEN);
  const root = async () => (await internal('/v1/users/lookup?ref=root').expect(200)).body as Actor;
  return {
    identity, workItems, transfer, storageDir, root, exchange: common.EVENTS_EXCHANGE,
    async makeUser(attrs = {}) {
      const username = (attrs.username as string) ?? unique('user');
      const res = await identity.as({ user: await root() }).post('/api/v4/users')
        .send({ username, name: `Name ${username}`, email: `${username}@example.com`, password: 'secret-password', ...attrs }).expect(201);
      return { id: res.body.id, username: res.body.username, name: res.body.name, admin: false, state: 'active' };
    },
    async makeProject(owner, attrs = {}) {
      const res = await identity.as({ user: owner }).post('/api/v4/projects').send({ path: unique('proj'), ...attrs }).expect(201);
      return res.body;
    },
    async addMember(projectId, user, level) {
      await identity.as({ user: await root() }).post(`/api/v4/projects/${projectId}/members`).send({ user_id: user.id, access_level: level }).expect(201);
    },
    async scope(projectId, user) {
      return (await internal(`/v1/projects/resolve?ref=${projectId}&user_id=${user?.id ?? ''}`).expect(200)).body as ProjectScope;
    },
    async stop() {
      await transfer.stop();
      await workItems.stop();
      await identity.stop();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/** Polls `fn` until it returns a truthy value (or throws after `ms`). */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
