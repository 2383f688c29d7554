import type { Actor, GroupScope, ProjectScope } from '@anvil/auth';
import { INTERNAL_TOKEN_HEADER } from '@anvil/auth';
import { startService, TEST_INTERNAL_TOKEN, TestService } from '@anvil/testing';
import { identityService } from '../src';

/** A running identity service for one test file. */
export type Identity = TestService;

/** Starts identity on a fresh schema (root is bootstrapped by onStart). */
export function startIdentity(env: Record<string, string> = {}): Promise<Identity> {
  return startService(identityService, { env });
}

let seq = 0;
/** A name unique within this test process. */
export function unique(prefix: string): string {
  seq += 1;
  return `${prefix}${seq}${Math.random().toString(36).slice(2, 6)}`;
}

/** Calls identity's internal API with the shared service token. */
export function internal(svc: Identity) {
  const agent = svc.raw();
  return {
    get: (path: string) => agent.get(`/internal${path}`).set(INTERNAL_TOKEN_HEADER, TEST_INTERNAL_TOKEN),
    post: (path: string) => agent.post(`/internal${path}`).set(INTERNAL_TOKEN_HEADER, TEST_INTERNAL_TOKEN),
  };
}

/** The bootstrapped administrator as the gateway would put it in a context. */
export async function rootActor(svc: Identity): Promise<Actor> {
  const res = await internal(svc).get('/v1/users/lookup?ref=root').expect(200);
  return res.body as Actor;
}

/** Creates a user through `POST /users` as root and returns its actor. */
export async function makeUser(svc: Identity, attrs: Record<string, unknown> = {}): Promise<Actor> {
  const root = await rootActor(svc);
  const username = (attrs.username as string) ?? unique('user');
  const res = await svc
    .as({ user: root })
    .post('/api/v4/users')
    .send({ username, name: `Name ${username}`, email: `${username}@example.com`, password: 'secret-password', ...attrs })
    .expect(201);
  return { id: res.body.id, username: res.body.username, name: res.body.name, admin: res.body.is_admin, state: res.body.state };
}

/** Creates a group as `owner` (who becomes its Owner) and returns the response body. */
export async function makeGroup(svc: Identity, owner: Actor, attrs: Record<string, unknown> = {}) {
  const path = (attrs.path as string) ?? unique('grp');
  const res = await svc.as({ user: owner }).post('/api/v4/groups').send({ name: path, path, ...attrs }).expect(201);
  return res.body as { id: number; full_path: string; path: string; parent_id: number | null };
}

/** Creates a project as `creator` and returns the response body. */
export async function makeProject(svc: Identity, creator: Actor, attrs: Record<string, unknown> = {}) {
  const path = (attrs.path as string) ?? unique('proj');
  const res = await svc.as({ user: creator }).post('/api/v4/projects').send({ path, ...attrs }).expect(201);
  return res.body as { id: number; path_with_namespace: string; namespace: { id: number } };
}

/** Adds `user` to a project or group at `level` as root. */
export async function addMember(svc: Identity, kind: 'projects' | 'groups', id: number, user: Actor, level: number) {
  const root = await rootActor(svc);
  await svc.as({ user: root }).post(`/api/v4/${kind}/${id}/members`).send({ user_id: user.id, access_level: level }).expect(201);
}

/** The project scope the gateway would sign for `user` (through the internal resolve endpoint). */
export async function projectScopeFor(svc: Identity, ref: string | number, user: Actor | null): Promise<ProjectScope> {
  const res = await internal(svc).get(`/v1/projects/resolve?ref=${encodeURIComponent(String(ref))}&user_id=${user?.id ?? ''}`).expect(200);
  return res.body as ProjectScope;
}

/** The group scope the gateway would sign for `user`. */
export async function groupScopeFor(svc: Identity, ref: string | number, user: Actor | null): Promise<GroupScope> {
  const res = await internal(svc).get(`/v1/groups/resolve?ref=${encodeURIComponent(String(ref))}&user_id=${user?.id ?? ''}`).expect(200);
  return res.body as GroupScope;
}

/** A client signed as the gateway signs requests to `/projects/:id/...`: with the caller's project scope. */
export async function asOnProject(svc: Identity, user: Actor | null, projectId: number) {
  return svc.as({ user, project: await projectScopeFor(svc, projectId, user) });
}

/** A client signed as the gateway signs requests to `/groups/:id/...`: with the caller's group scope. */
export async function asOnGroup(svc: Identity, user: Actor | null, groupId: number) {
  return svc.as({ user, group: await groupScopeFor(svc, groupId, user) });
}

/** Outbox events of a type (oldest first), optionally only those whose data matches `where`. */
export async function events(svc: Identity, type: string, where: Record<string, unknown> = {}) {
  const rows = (await svc.deps.db('outbox').where({ type }).orderBy('id')) as { type: string; producer: string; data: Record<string, unknown> }[];
  return rows.filter((r) => Object.entries(where).every(([k, v]) => JSON.stringify(r.data[k]) === JSON.stringify(v)));
}
