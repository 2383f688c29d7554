import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { actor, projectScope } from '@anvil/testing';
import { api, basic, createUser, eventually, registryJwt, TestUser } from '../../gateway/test/support/fixtures';
import { startTestGateway } from '../../gateway/test/support/gateway';
import { Stack, startStack } from './support/gateway-stack';

let s: Stack;
let alice: TestUser; // Developer of the private project
let bob: TestUser; // no membership
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let encoded: string;

const PROJECT_404 = { message: '404 Project Not Found' };
const as = (t: TestUser) => ({ 'PRIVATE-TOKEN': t.tokens.api.token });
/** Conan routes read a token from Basic (or their own JWT), never from PRIVATE-TOKEN. */
const conanAs = (t: TestUser) => ({ Authorization: basic(t.username, t.tokens.api.token) });

beforeAll(async () => {
  s = await startStack();
  alice = await createUser(s.url, s.adminToken, 'alice', { api: ['api'] });
  bob = await createUser(s.url, s.adminToken, 'bob', { api: ['api'] });
  const path = `g-${randomBytes(3).toString('hex')}`;
  group = await api(s.url, s.adminToken, 'post', '/groups', { name: path, path, visibility: 'private' });
  project = await api(s.url, s.adminToken, 'post', '/projects', { name: 'secret', path: 'secret', namespace_id: group.id, visibility: 'private' });
  await api(s.url, s.adminToken, 'post', `/projects/${project.id}/members`, { user_id: alice.id, access_level: 30 });
  encoded = encodeURIComponent(project.path_with_namespace);
});

afterAll(async () => {
  await s?.stop();
});

describe('private project visibility', () => {
  test('404 for anonymous and non-members, 200 for a member, by id and by encoded full path', async () => {
    for (const ref of [String(project.id), encoded]) {
      const anon = await request(s.url).get(`/api/v4/projects/${ref}`);
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(PROJECT_404);
      const outsider = await request(s.url).get(`/api/v4/projects/${ref}`).set(as(bob));
      expect(outsider.status).toBe(404);
      expect(outsider.body).toEqual(PROJECT_404);
      const member = await request(s.url).get(`/api/v4/projects/${ref}`).set(as(alice));
      expect(member.status).toBe(200);
      expect(member.body.id).toBe(project.id);
    }
  });

  test('a missing project or group is 404 with its resource name', async () => {
    expect((await request(s.url).get('/api/v4/projects/99999999/issues').set(as(alice))).body).toEqual(PROJECT_404);
    expect((await request(s.url).get('/api/v4/projects/no%2Fsuch').set(as(alice))).body).toEqual(PROJECT_404);
    const g = await request(s.url).get('/api/v4/groups/99999999/issues').set(as(alice));
    expect(g.status).toBe(404);
    expect(g.body).toEqual({ message: '404 Group Not Found' });
  });

  test('a private group is 404 to a non-member, visible to a project member through inheritance rules of identity', async () => {
    const res = await request(s.url).get(`/api/v4/groups/${group.id}/issues`).set(as(bob));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Group Not Found' });
    const admin = await request(s.url).get(`/api/v4/groups/${encodeURIComponent(group.full_path)}/issues`).set('PRIVATE-TOKEN', s.adminToken);
    expect(admin.status).toBe(200);
    expect(admin.body.path).toBe(`/api/v4/groups/${group.id}/issues`);
    expect(admin.body.ctx.group).toMatchObject({ id: group.id, full_path: group.full_path, visibility: 'private' });
  });
});

describe('resolution and rewrite', () => {
  test.each([
    ['issues/3/notes?sort=asc', 'work-items'],
    ['pipelines/latest', 'pipelines'],
    ['pipeline', 'pipelines'],
    ['alert_management_alerts', 'alerting'],
    ['export', 'project-transfer'],
    ['relation-imports', 'project-transfer'],
    ['packages/conan/v1/conans/pkg/1.0/u/c/digest', 'registry'],
  ])('/projects/<full path>/%s reaches %s as /projects/<id>/… with the scope', async (rest, service) => {
    const res = await request(s.url).get(`/api/v4/projects/${encoded}/${rest}`).set(service === 'registry' ? conanAs(alice) : as(alice));
    expect(res.status).toBe(200);
    expect(res.body.service).toBe(service);
    expect(res.body.path).toBe(`/api/v4/projects/${project.id}/${rest}`);
    expect(res.body.ctx.p).toBe(res.body.path);
    expect(res.body.ctx.project).toMatchObject({ id: project.id, path_with_namespace: project.path_with_namespace, group_id: group.id, visibility: 'private', access_level: 30 });
  });

  test('conan instance paths carry the project named by the package username when readable', async () => {
    const user = project.path_with_namespace.replace(/\//g, '+');
    const path = `/api/v4/packages/conan/v1/conans/pkg/1.0/${user}/stable/digest`;
    const member = await request(s.url).get(path).set(conanAs(alice));
    expect(member.body.ctx.project).toMatchObject({ id: project.id });
    expect(member.body.path).toBe(path);
    const outsider = await request(s.url).get(path).set(conanAs(bob));
    expect(outsider.status).toBe(200);
    expect(outsider.body.ctx.project).toBeUndefined();
  });

  test('notes, subscriptions and imports ask anonymous callers to sign in before anything is resolved', async () => {
    for (const [method, path] of [
      ['get', `/api/v4/projects/${project.id}/issues/1/notes`],
      ['post', `/api/v4/projects/${project.id}/issues/1/subscribe`],
      ['get', `/api/v4/projects/99999999/import`],
      ['get', `/api/v4/groups/${group.id}/epics/1/notes`],
    ] as const) {
      const res = await request(s.url)[method](path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    }
    // a signed-in outsider still gets the 404
    expect((await request(s.url).get(`/api/v4/projects/${project.id}/issues/1/notes`).set(as(bob))).body).toEqual(PROJECT_404);
  });

  test('a conan write without a caller is 401 before its project is looked up; a read is not', async () => {
    const rref = 'd41d8cd98f00b204e9800998ecf8427e';
    const expired = registryJwt(s.conanSecret, { access_token: alice.tokens.api.id, user_id: alice.id, exp: Math.floor(Date.now() / 1000) - 5 });
    for (const ref of [String(project.id), '99999999']) {
      const base = `/api/v4/projects/${ref}/packages/conan`;
      for (const [method, path, headers] of [
        ['put', `${base}/v2/conans/pkg/1.0/u/c/revisions/${rref}/files/conanfile.py`, {}],
        ['put', `${base}/v2/conans/pkg/1.0/u/c/revisions/${rref}/files/conanfile.py`, { Authorization: `Bearer ${expired}` }],
        ['put', `${base}/v1/files/pkg/1.0/u/c/0/export/conanfile.py`, { 'PRIVATE-TOKEN': alice.tokens.api.token }],
        ['delete', `${base}/v2/conans/pkg/1.0/u/c/revisions/${rref}`, {}],
        ['delete', `${base}/v1/conans/pkg/1.0/u/c`, { Authorization: basic(alice.username, alice.password) }],
        ['post', `${base}/v1/conans/pkg/1.0/u/c/upload_urls`, {}],
      ] as const) {
        const res = await request(s.url)[method](path).set(headers).send('x');
        expect([method, path, res.status, res.body]).toEqual([method, path, 401, { message: '401 Unauthorized' }]);
      }
    }
    // at instance level as well, whatever project the package username names
    const instance = await request(s.url).delete('/api/v4/packages/conan/v1/conans/pkg/1.0/no+such/c');
    expect([instance.status, instance.body]).toEqual([401, { message: '401 Unauthorized' }]);
    // reads still get the project's 404, and a signed-in outsider's write too
    const read = await request(s.url).get(`/api/v4/projects/${project.id}/packages/conan/v1/conans/pkg/1.0/u/c`);
    expect([read.status, read.body]).toEqual([404, PROJECT_404]);
    const outsider = await request(s.url).delete(`/api/v4/projects/${project.id}/packages/conan/v1/conans/pkg/1.0/u/c`).set(conanAs(bob));
    expect([outsider.status, outsider.body]).toEqual([404, PROJECT_404]);
  });

  test('conan authenticate on a project path does not need the project', async () => {
    const res = await request(s.url).get('/api/v4/projects/99999999/packages/conan/v1/users/authenticate');
    expect(res.status).toBe(200);
    expect(res.body.service).toBe('registry');
  });

  test('alert notifications: project resolved from the path whatever its visibility, key passed through', async () => {
    const res = await request(s.url)
      .post(`/${project.path_with_namespace}/alerts/notify/http/abc123.json`)
      .set('Authorization', 'Bearer integration-key')
      .send({ title: 'x' });
    expect(res.status).toBe(200);
    expect(res.body.service).toBe('alerting');
    expect(res.body.path).toBe(`/api/v4/projects/${project.id}/alerts/notify/http/abc123.json`);
    expect(res.body.ctx).toMatchObject({ user: null, auth: 'none', project: { id: project.id } });
    expect(res.body.headers.authorization).toBe('Bearer integration-key');
    expect(res.body.body).toEqual({ title: 'x' });
    const prom = await request(s.url).post(`/${project.path_with_namespace}/prometheus/alerts/notify.json`).send({});
    expect(prom.body.path).toBe(`/api/v4/projects/${project.id}/prometheus/alerts/notify.json`);
    const bare = await request(s.url).post(`/${project.path_with_namespace}/prometheus/alerts/notify`).send({});
    expect(bare.body.path).toBe(`/api/v4/projects/${project.id}/prometheus/alerts/notify`);
    // a missing project is forwarded without one: the service answers it as it answers a wrong key
    const missing = await request(s.url).post('/no/such/alerts/notify.json').send({});
    expect(missing.body.path).toBe('/api/v4/projects/0/alerts/notify.json');
    expect(missing.body.ctx.project).toBeUndefined();
  });
});

describe('cache invalidation', () => {
  test('a membership added through the gateway applies to the next request', async () => {
    const carol = await createUser(s.url, s.adminToken, 'carol', { api: ['api'] });
    expect((await request(s.url).get(`/api/v4/projects/${project.id}/issues`).set(as(carol))).status).toBe(404);
    await api(s.url, s.adminToken, 'post', `/projects/${project.id}/members`, { user_id: carol.id, access_level: 20 });
    const res = await request(s.url).get(`/api/v4/projects/${project.id}/issues`).set(as(carol));
    expect(res.status).toBe(200);
    expect(res.body.ctx.project.access_level).toBe(20);
  });

  test('a membership removed behind the gateway is noticed from identity events, before the cache TTL', async () => {
    const dave = await createUser(s.url, s.adminToken, 'dave', { api: ['api'] });
    await api(s.url, s.adminToken, 'post', `/projects/${project.id}/members`, { user_id: dave.id, access_level: 30 });
    expect((await request(s.url).get(`/api/v4/projects/${project.id}/issues`).set(as(dave))).status).toBe(200);
    // straight to identity, not through the gateway: only the event can tell the gateway
    const admin = actor('root', { id: (await api<{ id: number }>(s.url, s.adminToken, 'get', '/user')).id, admin: true });
    const scope = projectScope(project.id, { path_with_namespace: project.path_with_namespace, group_id: group.id, namespace_id: group.id, access_level: 50 });
    const del = await s.identity.as({ user: admin, project: scope }).delete(`/api/v4/projects/${project.id}/members/${dave.id}`);
    expect(del.status).toBe(204);
    const ms = await eventually(async () => (await request(s.url).get(`/api/v4/projects/${project.id}/issues`).set(as(dave))).status === 404, 4000);
    expect(ms).toBeLessThan(4000);
  });

  test('a token revoked behind the gateway is refused from the identity.token.revoked event, before the cache TTL', async () => {
    const fay = await createUser(s.url, s.adminToken, 'fay', { api: ['api'] });
    expect((await request(s.url).get('/api/v4/todos').set(as(fay))).status).not.toBe(401);
    const admin = actor('root', { id: (await api<{ id: number }>(s.url, s.adminToken, 'get', '/user')).id, admin: true });
    const del = await s.identity.as({ user: admin }).delete(`/api/v4/personal_access_tokens/${fay.tokens.api.id}`);
    expect(del.status).toBe(204);
    const ms = await eventually(async () => (await request(s.url).get('/api/v4/todos').set(as(fay))).status === 401, 4000);
    expect(ms).toBeLessThan(4000);
    const res = await request(s.url).get('/api/v4/todos').set(as(fay));
    expect(res.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
  });

  test('a blocked user is refused', async () => {
    const erin = await createUser(s.url, s.adminToken, 'erin', { api: ['api'] });
    await s.identity.deps.db('users').where({ id: erin.id }).update({ state: 'blocked' });
    s.gw.gateway.invalidate();
    const res = await request(s.url).get('/api/v4/todos').set(as(erin));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
  });
});

describe('FIPS mode', () => {
  test('every conan route is 404 Not Found before credentials, sudo or the project are looked at; other routes are not', async () => {
    const gw = await startTestGateway({ identity: s.identity.url, registry: s.echoes.registry.url }, { FIPS_MODE: 'true', CONAN_JWT_SECRET: s.conanSecret });
    try {
      const rref = 'd41d8cd98f00b204e9800998ecf8427e';
      for (const [method, path, headers] of [
        ['get', '/api/v4/packages/conan/v1/ping', {}],
        ['get', `/api/v4/projects/${project.id}/packages/conan/v1/ping?sudo=${bob.id}`, conanAs(alice)],
        ['get', '/api/v4/projects/99999999/packages/conan/v2/users/authenticate', { Authorization: 'Bearer not-a-token' }],
        ['get', `/api/v4/projects/${encoded}/packages/conan/v2/conans/pkg/1.0/u/c/revisions`, {}],
        ['put', `/api/v4/projects/${project.id}/packages/conan/v2/conans/pkg/1.0/u/c/revisions/${rref}/files/conanfile.py`, conanAs(alice)],
        ['delete', '/api/v4/packages/conan/v1/conans/pkg/1.0/no+such/c', {}],
      ] as const) {
        const res = await request(gw.url)[method](path).set(headers).send('x');
        expect([method, path, res.status, res.body]).toEqual([method, path, 404, { message: '404 Not Found' }]);
      }
      const other = await request(gw.url).get(`/api/v4/projects/${project.id}`).set(as(alice));
      expect(other.status).toBe(200);
    } finally {
      await gw.stop();
    }
  });
});
