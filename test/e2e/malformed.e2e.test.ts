import { Fleet, startFleet } from '@anvil/testing';
import { client } from './http';

/**
 * Strings no request has a reason to hold — a NUL byte, a lone surrogate, broken percent-encoding —
 * get GitLab's `400 Bad Request` (plain text, its HandleMalformedStrings middleware) through the real
 * gateway to the services as separate processes, whether in the path, the query or a JSON body, and
 * nothing is written. Postgres refuses NUL in text: each of these was a 500 before.
 */
describe('malformed strings through the fleet', () => {
  let fleet: Fleet;
  let admin: ReturnType<typeof client>;
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    admin = client(fleet.url, fleet.adminToken);
    const project = await admin.post('/projects', { name: 'Clean', path: 'clean' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const badRequest = (r: { status: number; headers: Headers; body: unknown }) => {
    expect({ status: r.status, type: r.headers.get('content-type'), body: r.body }).toEqual({ status: 400, type: 'text/plain', body: 'Bad Request' });
  };

  it('refuses a NUL or a lone surrogate in a JSON body, and writes nothing', async () => {
    badRequest(await admin.post('/users', { username: 'nul', name: 'a\u0000b', email: 'nul@example.com', password: 'Sup3r-secret-pw!' }));
    badRequest(await admin.post('/groups', { name: 'Nul', path: 'nul', description: '\ud800' }));
    badRequest(await admin.post('/projects', { name: 'nul\u0000', path: 'nul' }));
    badRequest(await admin.post(`/projects/${projectId}/issues`, { title: 'crash\u0000me' }));
    badRequest(await admin.post(`/projects/${projectId}/issues`, { title: 'deep', labels: ['ok', 'bad\u0000'] }));
    badRequest(await admin.post(`/projects/${projectId}/labels`, { name: 'l\u0000', color: '#ffffff' }));
    expect((await admin.get('/users?username=nul')).body).toEqual([]);
    expect((await admin.get('/groups?search=Nul')).body).toEqual([]);
    expect((await admin.get(`/projects/${projectId}/issues`)).body).toEqual([]);
    expect((await admin.get(`/projects/${projectId}/labels`)).body).toEqual([]);
  });

  it('refuses a malformed query parameter or path segment before any service', async () => {
    badRequest(await admin.get('/projects?search=%00'));
    badRequest(await admin.get('/issues?search=a%00b'));
    badRequest(await admin.get(`/projects/${projectId}/issues?labels=%E9`));
    badRequest(await admin.get('/projects/clean%00'));
    badRequest(await admin.get('/groups/%zz'));
  });

  it('still serves well-formed non-ASCII text', async () => {
    const issue = await admin.post(`/projects/${projectId}/issues`, { title: 'caf\u00e9 \ud83d\ude80' });
    expect(issue.status).toBe(201);
    const found = await admin.get(`/projects/${projectId}/issues?search=${encodeURIComponent('caf\u00e9')}`);
    expect(found.status).toBe(200);
    expect(found.body.map((i: { title: string }) => i.title)).toEqual(['caf\u00e9 \ud83d\ude80']);
  });
});
