import { randomBytes } from 'node:crypto';
import { AccessLevel, type Actor, type ProjectScope } from '@anvil/auth';
import { basic, registryJwt, startMiniFleet, userWithProject, type MiniFleet } from './registry-fleet';
import { PKG_ID, PREV, RREV } from '../../services/registry/test/helpers';

/**
 * Reused answers through the real gateway: a v2 file asked again by the same caller is sent from
 * storage without asking the registry, and never after it changed — written through this gateway,
 * written behind it (another replica: straight to the registry), deleted, or asked by someone else;
 * a login repeated with the same token gets the same registry token, never once the token is revoked.
 */
let f: MiniFleet;
let owner: Awaited<ReturnType<typeof userWithProject>>;
let jwt: string;

beforeAll(async () => {
  f = await startMiniFleet();
  owner = await userWithProject(f, 'reuse-owner', 'reuse');
  jwt = await registryJwt(f, owner.projectId, 'reuse-owner', owner.token);
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

const recipe = (name: string) => `/api/v4/projects/${owner.projectId}/packages/conan/v2/conans/${name}/1.0/${owner.fullPath.replace('/', '+')}/stable`;
const recipeFile = (name: string, file = 'conan_sources.tgz') => `${recipe(name)}/revisions/${RREV}/files/${file}`;
const packageFile = (name: string, file: string) => `${recipe(name)}/revisions/${RREV}/packages/${PKG_ID}/revisions/${PREV}/files/${file}`;

async function call(method: string, path: string, body?: Buffer, headers: Record<string, string> = { Authorization: `Bearer ${jwt}` }) {
  const r = await fetch(`${f.url}${path}`, { method, headers, body });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

/** GET requests the registry answered 200 so far (its Prometheus counter), not counting this look. */
async function registryGets(): Promise<number> {
  const text = await (await fetch(`${f.registry.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('http_requests_total{') && l.includes('method="GET"') && l.includes('status="200"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** How many of `run`'s requests reached the registry (GETs answered 200). */
async function forwarded(run: () => Promise<unknown>): Promise<number> {
  const before = await registryGets();
  await run();
  // the look before this one is counted too
  return (await registryGets()) - before - 1;
}

/** The owner acting straight on the registry, as another gateway replica would forward it. */
function behindTheGateway() {
  const scope: ProjectScope = { id: owner.projectId, path_with_namespace: owner.fullPath, namespace_id: 0, group_id: null, visibility: 'private', access_level: AccessLevel.OWNER };
  return f.registry.as({ user: owner.user, scopes: ['api'], auth: 'pat', token_id: 1, project: scope });
}

describe('reused send-file answers (v2 downloads)', () => {
  it('sends a file asked again by the same caller from storage without asking the registry, with the same headers', async () => {
    const data = randomBytes(5000);
    expect((await call('PUT', recipeFile('same'), data)).status).toBe(200);
    const first = await call('GET', recipeFile('same'));
    let second!: Awaited<ReturnType<typeof call>>;
    expect(await forwarded(async () => (second = await call('GET', recipeFile('same'))))).toBe(0);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.equals(data)).toBe(true);
    for (const h of ['content-type', 'content-length', 'content-disposition', 'x-frame-options', 'x-content-type-options']) expect(second.headers.get(h)).toBe(first.headers.get(h));
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect([...second.headers.keys()].filter((h) => h.startsWith('x-anvil-'))).toEqual([]);
  });

  it('asks the registry again after a write to the project through the gateway, and sends the new bytes', async () => {
    expect((await call('PUT', recipeFile('rewritten'), Buffer.from('one'))).status).toBe(200);
    expect((await call('GET', recipeFile('rewritten'))).body.toString()).toBe('one');
    // a write to another file of the same project is enough
    expect((await call('PUT', recipeFile('other'), Buffer.from('x'))).status).toBe(200);
    expect(await forwarded(() => call('GET', recipeFile('rewritten')))).toBe(1);
    expect((await call('PUT', recipeFile('rewritten'), Buffer.from('two'))).status).toBe(200);
    const again = await call('GET', recipeFile('rewritten'));
    expect(again.body.toString()).toBe('two');
  });

  it('never sends a file replaced behind the gateway: its old object is gone, so the registry answers', async () => {
    expect((await call('PUT', recipeFile('replaced'), Buffer.from('before'))).status).toBe(200);
    expect((await call('GET', recipeFile('replaced'))).body.toString()).toBe('before');
    await behindTheGateway().put(recipeFile('replaced')).send('after').expect(200);
    let after!: Awaited<ReturnType<typeof call>>;
    expect(await forwarded(async () => (after = await call('GET', recipeFile('replaced'))))).toBe(1);
    expect(after.status).toBe(200);
    expect(after.body.toString()).toBe('after');
  });

  it('answers as the registry does once the revision was deleted behind the gateway', async () => {
    expect((await call('PUT', packageFile('deleted', 'conan_package.tgz'), Buffer.from('bytes'))).status).toBe(200);
    expect((await call('GET', packageFile('deleted', 'conan_package.tgz'))).status).toBe(200);
    await behindTheGateway().delete(`${recipe('deleted')}/revisions/${RREV}`).expect(200);
    const gone = await call('GET', packageFile('deleted', 'conan_package.tgz'));
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body.toString())).toEqual({ message: '404 Package Not Found' });
  });

  it('gives no other caller the answer: an outsider gets 404, a reporter is answered by the registry', async () => {
    expect((await call('PUT', recipeFile('shared'), Buffer.from('team'))).status).toBe(200);
    expect((await call('GET', recipeFile('shared'))).status).toBe(200);
    const outsider = await userWithProject(f, 'reuse-outsider', 'outsider-own');
    const refused = await call('GET', recipeFile('shared'), undefined, basic('reuse-outsider', outsider.token));
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body.toString())).toEqual({ message: '404 Project Not Found' });
    const reporter = await userWithProject(f, 'reuse-reporter', 'reporter-own');
    const root: Actor = f.root;
    await f.identity.as({ user: root, project: { id: owner.projectId, path_with_namespace: owner.fullPath, namespace_id: 0, group_id: null, visibility: 'private', access_level: AccessLevel.OWNER } })
      .post(`/api/v4/projects/${owner.projectId}/members`).send({ user_id: reporter.user.id, access_level: AccessLevel.REPORTER }).expect(201);
    let read!: Awaited<ReturnType<typeof call>>;
    expect(await forwarded(async () => (read = await call('GET', recipeFile('shared'), undefined, basic('reuse-reporter', reporter.token))))).toBe(1);
    expect(read.body.toString()).toBe('team');
  });

  it('sends nothing to a registry token once its personal access token is revoked: it counts as no credentials', async () => {
    const t = await f.identity.as({ user: f.root }).post(`/api/v4/users/${owner.user.id}/personal_access_tokens`).send({ name: 'to-revoke', scopes: ['api'] }).expect(201);
    const token = await registryJwt(f, owner.projectId, 'reuse-owner', t.body.token);
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await call('PUT', recipeFile('revoked'), Buffer.from('secret'), bearer)).status).toBe(200);
    expect((await call('GET', recipeFile('revoked'), undefined, bearer)).body.toString()).toBe('secret');
    expect((await call('DELETE', `/api/v4/personal_access_tokens/${t.body.id}`, undefined, { 'PRIVATE-TOKEN': t.body.token })).status).toBe(204);

    // the download it was just answered is not given again: the private project is 404 to nobody
    const read = await call('GET', recipeFile('revoked'), undefined, bearer);
    expect(read.status).toBe(404);
    expect(JSON.parse(read.body.toString())).toEqual({ message: '404 Project Not Found' });
    const write = await call('PUT', recipeFile('revoked'), Buffer.from('overwritten'), bearer);
    expect(write.status).toBe(401);
    expect(JSON.parse(write.body.toString())).toEqual({ message: '401 Unauthorized' });
    const check = await call('GET', `/api/v4/projects/${owner.projectId}/packages/conan/v2/users/check_credentials`, undefined, bearer);
    expect(check.status).toBe(401);
    expect((await call('GET', recipeFile('revoked'))).body.toString()).toBe('secret');
  });

  it('drops a project’s answers when another replica announces a change to its packages', async () => {
    expect((await call('PUT', recipeFile('announced'), Buffer.from('v'))).status).toBe(200);
    await call('GET', recipeFile('announced'));
    f.gateway.gateway.invalidate('registry.package.deleted', { project_id: owner.projectId });
    expect(await forwarded(() => call('GET', recipeFile('announced')))).toBe(1);
  });

  it('forwards every v1 download (a v1 address names the newest revision, which can change)', async () => {
    expect((await call('PUT', recipeFile('v1view', 'conanfile.py'), Buffer.from('print(1)\n'))).status).toBe(200);
    const v1 = `/api/v4/projects/${owner.projectId}/packages/conan/v1/files/v1view/1.0/${owner.fullPath.replace('/', '+')}/stable/0/export/conanfile.py`;
    expect((await call('GET', v1)).body.toString()).toBe('print(1)\n');
    expect(await forwarded(() => call('GET', v1))).toBe(1);
  });
});

describe('reused authenticate answers', () => {
  const authenticate = (token: string, user = 'reuse-owner') => call('GET', `/api/v4/projects/${owner.projectId}/packages/conan/v2/users/authenticate`, undefined, basic(user, token));

  it('gives a login repeated with the same token the same registry token, asking the registry once', async () => {
    const first = await authenticate(owner.token);
    let second!: Awaited<ReturnType<typeof call>>;
    expect(await forwarded(async () => (second = await authenticate(owner.token)))).toBe(0);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.toString()).toBe(first.body.toString());
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // and it works as a registry token
    const r = await call('GET', `/api/v4/projects/${owner.projectId}/packages/conan/v2/users/check_credentials`, undefined, { Authorization: `Bearer ${second.body.toString()}` });
    expect(r.status).toBe(200);
  });

  it('gives another token of the same user a token of its own', async () => {
    const t = await f.identity.as({ user: f.root }).post(`/api/v4/users/${owner.user.id}/personal_access_tokens`).send({ name: 'second', scopes: ['api'] }).expect(201);
    const mine = (await authenticate(owner.token)).body.toString();
    expect(await forwarded(async () => expect((await authenticate(t.body.token)).body.toString()).not.toBe(mine))).toBe(1);
  });

  it('refuses a revoked token at once instead of giving the token kept for it', async () => {
    const t = await f.identity.as({ user: f.root }).post(`/api/v4/users/${owner.user.id}/personal_access_tokens`).send({ name: 'revoked', scopes: ['api'] }).expect(201);
    expect((await authenticate(t.body.token)).status).toBe(200);
    const revoked = await call('DELETE', `/api/v4/personal_access_tokens/${t.body.id}`, undefined, { 'PRIVATE-TOKEN': t.body.token });
    expect(revoked.status).toBe(204);
    const after = await authenticate(t.body.token);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body.toString())).toEqual({ message: '401 Unauthorized' });
  });
});
