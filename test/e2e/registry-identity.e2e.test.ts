import { AccessLevel, type Actor, type ProjectScope } from '@anvil/auth';
import { projectScope, startService, type TestService } from '@anvil/testing';
import { identityService } from '@anvil/identity';
import { asUser, startRegistry, v1i, type Registry } from '../../services/registry/test/helpers';

let identity: TestService;
let registry: Registry;
let root: Actor;

beforeAll(async () => {
  identity = await startService(identityService);
  registry = await startRegistry({ IDENTITY_URL: identity.url });
  const row = await identity.deps.db('users').where({ username: 'root' }).first();
  root = { id: Number(row.id), username: 'root', name: row.name, admin: true, state: 'active' };
});
afterAll(async () => {
  await registry?.stop();
  await identity?.stop();
});

async function createUser(username: string): Promise<Actor> {
  const r = await identity.as({ user: root }).post('/api/v4/users').send({ username, name: username, email: `${username}@example.com`, password: 'S3cure-pass-phrase!', skip_confirmation: true }).expect(201);
  return { id: r.body.id, username, name: username, admin: false, state: 'active' };
}

async function createProject(owner: Actor, path: string, visibility: 'private' | 'public'): Promise<ProjectScope> {
  const r = await identity.as({ user: owner }).post('/api/v4/projects').send({ name: path, path, visibility }).expect(201);
  return projectScope(r.body.id, { path_with_namespace: r.body.path_with_namespace, visibility, access_level: AccessLevel.OWNER, namespace_id: r.body.namespace.id, group_id: null });
}

async function upload(owner: Actor, p: ProjectScope, name: string) {
  const user = p.path_with_namespace.replace(/\//g, '+');
  await registry.as(asUser(owner, p)).put(`${v1i}/files/${name}/1.0/${user}/stable/0/export/conanfile.py`).send('x').expect(200);
}

describe('GET /packages/conan/v1/conans/search (instance level, scoped through identity)', () => {
  let alice: Actor;
  let bob: Actor;
  let a: ProjectScope;
  let b: ProjectScope;
  let c: ProjectScope;
  beforeAll(async () => {
    alice = await createUser('alice');
    bob = await createUser('bob');
    a = await createProject(alice, 'apkgs', 'private');
    b = await createProject(bob, 'bpkgs', 'private');
    c = await createProject(bob, 'cpkgs', 'public');
    await upload(alice, a, 'hello');
    await upload(bob, b, 'hello');
    await upload(bob, c, 'hello');
  });
  const results = async (who: Actor | null, q: string) => {
    const r = await registry.as(who ? asUser(who) : { user: null }).get(`${v1i}/conans/search?q=${encodeURIComponent(q)}`).expect(200);
    return (r.body.results as string[]).sort();
  };
  const ref = (p: ProjectScope) => `hello/1.0@${p.path_with_namespace.replace(/\//g, '+')}/stable`;

  it('finds packages only in projects the caller may read', async () => {
    expect(await results(alice, 'hello')).toEqual([ref(a), ref(c)].sort());
    expect(await results(bob, 'hel*')).toEqual([ref(b), ref(c)].sort());
    expect(await results(null, 'hello')).toEqual([ref(c)]);
    expect(await results(root, 'hello')).toEqual([ref(a), ref(b), ref(c)].sort());
  });

  it('limits the search to the project a username names, when the caller may read it', async () => {
    expect(await results(alice, `hello/1.0@${a.path_with_namespace.replace('/', '+')}/stable`)).toEqual([ref(a)]);
    expect(await results(alice, `hello/1.0@${b.path_with_namespace.replace('/', '+')}/stable`)).toEqual([]);
    expect(await results(null, `hello/*@${c.path_with_namespace.replace('/', '+')}/x`)).toEqual([ref(c)]);
    // a username with a wildcard names no project: nothing, even where the caller reads every project
    expect(await results(root, 'hello/1.0@*/stable')).toEqual([]);
    expect(await results(root, `hello/1.0@${c.path_with_namespace.split('/')[0]}+*/stable`)).toEqual([]);
  });

  it('follows membership changes in identity', async () => {
    await identity.as({ user: root, project: { ...b, access_level: AccessLevel.OWNER } }).post(`/api/v4/projects/${b.id}/members`).send({ user_id: alice.id, access_level: AccessLevel.GUEST }).expect(201);
    expect(await results(alice, 'hello')).toEqual([ref(a), ref(b), ref(c)].sort());
  });
});

describe('GET users/authenticate with the token expiry from identity', () => {
  it('caps exp at the start of the token’s expiry day, and refuses a revoked token', async () => {
    const carol = await createUser('carol');
    const day = new Date(Date.now() + 5 * 86400_000).toISOString().slice(0, 10);
    const t = await identity.as({ user: root }).post(`/api/v4/users/${carol.id}/personal_access_tokens`).send({ name: 'conan', scopes: ['api'], expires_at: day }).expect(201);
    const r = await registry.as({ user: carol, auth: 'basic', scopes: ['api'], token_id: t.body.id }).get(`${v1i}/users/authenticate`).expect(200);
    const claims = JSON.parse(Buffer.from(r.text.split('.')[1], 'base64url').toString()) as Record<string, number>;
    expect(claims).toMatchObject({ access_token: t.body.id, user_id: carol.id, exp: Date.parse(`${day}T00:00:00Z`) / 1000 });

    const other = await identity.as({ user: root }).post(`/api/v4/users/${carol.id}/personal_access_tokens`).send({ name: 'gone', scopes: ['api'] }).expect(201);
    await identity.as({ user: root }).delete(`/api/v4/personal_access_tokens/${other.body.id}`).expect(204);
    await registry.as({ user: carol, auth: 'basic', scopes: ['api'], token_id: other.body.id }).get(`${v1i}/users/authenticate`).expect(401, { message: '401 Unauthorized' });
  });
});

describe('GET /packages/conan/v1/conans/search on an instance with very many projects', () => {
  it('searches more readable projects than one statement could bind parameters for (65,535)', async () => {
    const dave = await createUser('dave');
    const d = await createProject(dave, 'dpkgs', 'public');
    await upload(dave, d, 'scaled');
    await identity.deps.db.raw(
      `INSERT INTO projects (name, path, namespace_id, visibility) SELECT 'bulk' || g, 'bulk-' || g, ?, 'public' FROM generate_series(1, 70000) g`,
      [d.namespace_id],
    );
    const r = await registry.as({ user: null }).get(`${v1i}/conans/search?q=scaled`).expect(200);
    expect(r.body).toEqual({ results: [`scaled/1.0@${d.path_with_namespace.replace('/', '+')}/stable`] });
  });
});
