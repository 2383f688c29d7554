import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { client } from './http';

/**
 * The foundation issue's walk-through, through the real gateway to the six services running as
 * separate processes over real RabbitMQ: an administrator creates a user, a group, a private
 * project in it and a member; visibility answers as GitLab's; python-gitlab works for what exists.
 */
describe('the fleet end to end', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet();
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('every service is ready behind the gateway', async () => {
    for (const [name, s] of Object.entries(fleet.services)) {
      const r = await fetch(`${s.url}/-/readiness`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ status: 'ok', service: name });
    }
    expect(Object.keys(fleet.services).sort()).toEqual(['alerting', 'identity', 'pipelines', 'project-transfer', 'registry', 'work-items']);
  });

  it('walks user → group → private project → member, with GitLab visibility', async () => {
    const admin = client(fleet.url, fleet.adminToken);
    const me = await admin.get('/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'root', is_admin: true });

    const alice = await admin.post('/users', { username: 'alice', name: 'Alice', email: 'alice@example.com', password: 'Sup3r-secret-pw!', skip_confirmation: true });
    expect(alice.status).toBe(201);
    expect(alice.body).toMatchObject({ username: 'alice', name: 'Alice', email: 'alice@example.com', state: 'active' });
    const bob = await admin.post('/users', { username: 'bob', name: 'Bob', email: 'bob@example.com', password: 'Sup3r-secret-pw!' });
    expect(bob.status).toBe(201);
    expect(bob.body).toMatchObject({ username: 'bob', name: 'Bob', email: 'bob@example.com', state: 'active' });
    const aliceToken = await admin.post(`/users/${alice.body.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] });
    expect(aliceToken.status).toBe(201);
    expect(aliceToken.body).toMatchObject({ name: 'e2e', scopes: ['api'], user_id: alice.body.id, active: true, revoked: false });
    expect(aliceToken.body.token).toEqual(expect.any(String));
    const bobToken = await admin.post(`/users/${bob.body.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] });

    const group = await admin.post('/groups', { name: 'Acme', path: 'acme', visibility: 'private' });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({ name: 'Acme', path: 'acme', full_path: 'acme', visibility: 'private', parent_id: null });
    const project = await admin.post('/projects', { name: 'Rocket', path: 'rocket', namespace_id: group.body.id, visibility: 'private' });
    expect(project.status).toBe(201);
    expect(project.body).toMatchObject({ path_with_namespace: 'acme/rocket', visibility: 'private' });
    const member = await admin.post(`/projects/${project.body.id}/members`, { user_id: alice.body.id, access_level: 30 });
    expect(member.status).toBe(201);
    expect(member.body).toMatchObject({ id: alice.body.id, username: 'alice', access_level: 30 });

    const anon = client(fleet.url);
    const asAlice = client(fleet.url, aliceToken.body.token);
    const asBob = client(fleet.url, bobToken.body.token);
    for (const ref of [String(project.body.id), 'acme%2Frocket']) {
      expect(await anon.get(`/projects/${ref}`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await asBob.get(`/projects/${ref}`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      const seen = await asAlice.get(`/projects/${ref}`);
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ id: project.body.id, path_with_namespace: 'acme/rocket' });
    }
    const bad = await client(fleet.url, 'glpat-not-a-real-token-xxxxx').get('/user');
    expect(bad).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
  });

  it('drops an internal identity header sent from outside', async () => {
    const r = await fetch(`${fleet.url}/api/v4/user`, { headers: { 'x-anvil-context': 'forged.header' } });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ message: '401 Unauthorized' });
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('python-gitlab (Debian python3-gitlab) works for what exists', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'spine.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, ANVIL_TOKEN: fleet.adminToken },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab script failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(out).toMatchObject({
      auth_user: 'root',
      user: 'carol',
      group: 'pygroup',
      project: 'pygroup/pyproject',
      member_access: 40,
    });
    expect(out.listed).toContain('pygroup/pyproject');
  });
});
