import { Fleet, startFleet } from '@anvil/testing';
import { client, Reply } from './http';
import { CrossingProxy, startCrossingProxy } from './support/crossing-proxy';

type Client = ReturnType<typeof client>;

/** The request's status must be `status`; its reply otherwise fails the test with the body. */
async function expectStatus<T = any>(reply: Promise<Reply<T>>, status: number): Promise<Reply<T>> {
  const r = await reply;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r;
}

/**
 * Two work-items replicas on one schema, over RabbitMQ, behind the real gateway; a proxy between the
 * gateway and the replicas sends writes to one replica and reads to the other, swapping them every
 * round. A client writes an issue, a label, a milestone, a note and a to-do, reading the item or list
 * (and `X-Total`) before and right after each write: the read after shows the write, every time.
 */
describe('work-items: a client reads its own writes on every replica', () => {
  let fleet: Fleet;
  let proxy: CrossingProxy;
  let dev: Client;
  let projectId: number;

  beforeAll(async () => {
    proxy = await startCrossingProxy();
    fleet = await startFleet({ services: ['identity', 'work-items'], replicas: { 'work-items': 2 }, upstreams: { 'work-items': proxy.url } });
    proxy.targets = fleet.replicas['work-items'].map((p) => p.url);
    const admin = client(fleet.url, fleet.adminToken);
    const user = (await expectStatus(admin.post('/users', { username: 'ryw', name: 'RYW', email: 'ryw@example.com', password: 'Sup3r-secret-pw!', skip_confirmation: true }), 201)).body;
    const token = (await expectStatus(admin.post(`/users/${user.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] }), 201)).body.token;
    const group = (await expectStatus(admin.post('/groups', { name: 'Replicas', path: 'replicas', visibility: 'private' }), 201)).body;
    projectId = (await expectStatus(admin.post('/projects', { name: 'Both', path: 'both', namespace_id: group.id, visibility: 'private' }), 201)).body.id;
    await expectStatus(admin.post(`/projects/${projectId}/members`, { user_id: user.id, access_level: 40 }), 201);
    dev = client(fleet.url, token);
    await untilMember();
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
    await proxy?.stop();
  });

  /** Identity's events reach work-items asynchronously: wait until the member may write. */
  async function untilMember(): Promise<void> {
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const r = await dev.post(`/projects/${projectId}/labels`, { name: 'probe', color: '#000000' });
      if (r.status === 201) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('work-items never saw the membership');
  }

  const P = (suffix = '') => `/projects/${projectId}${suffix}`;

  /** Reads `path` (so the reading replica has answered it before), runs `write`, and returns the same read again. */
  async function aroundWrite<T>(path: string, write: () => Promise<T>): Promise<{ written: T; before: Reply<any>; after: Reply<any> }> {
    const before = await expectStatus(dev.get(path), 200);
    const written = await write();
    return { written, before, after: await expectStatus(dev.get(path), 200) };
  }

  async function round(i: number): Promise<void> {
    const count = await aroundWrite(P('/issues?per_page=1'), async () => (await expectStatus(dev.post(P('/issues'), { title: `Issue ${i}`, labels: `round-${i}` }), 201)).body);
    const issue = count.written;
    expect(count.after.headers.get('x-total')).toBe(String(i));
    expect((await expectStatus(dev.get(P(`/issues?labels=round-${i}`)), 200)).body.map((x: { iid: number }) => x.iid)).toEqual([issue.iid]);

    const edit = await aroundWrite(P(`/issues/${issue.iid}`), () => expectStatus(dev.put(P(`/issues/${issue.iid}`), { title: `Issue ${i} edited`, state_event: 'close' }), 200));
    expect(edit.after.body).toMatchObject({ title: `Issue ${i} edited`, state: 'closed' });
    expect((await expectStatus(dev.get(P('/issues?state=closed&per_page=1')), 200)).headers.get('x-total')).toBe(String(i));

    const labels = await aroundWrite(P('/labels?per_page=1'), async () => (await expectStatus(dev.post(P('/labels'), { name: `label-${i}`, color: '#111111' }), 201)).body);
    expect(labels.after.headers.get('x-total')).toBe(String(Number(labels.before.headers.get('x-total')) + 1));
    const recolored = await aroundWrite(P(`/labels/${labels.written.id}`), () => expectStatus(dev.put(P(`/labels/${labels.written.id}`), { color: '#222222' }), 200));
    expect(recolored.after.body.color).toBe('#222222');

    const milestones = await aroundWrite(P('/milestones?per_page=1'), async () => (await expectStatus(dev.post(P('/milestones'), { title: `m-${i}` }), 201)).body);
    expect(milestones.after.headers.get('x-total')).toBe(String(i));
    const renamed = await aroundWrite(P(`/milestones/${milestones.written.id}`), () => expectStatus(dev.put(P(`/milestones/${milestones.written.id}`), { title: `m-${i} renamed` }), 200));
    expect(renamed.after.body.title).toBe(`m-${i} renamed`);

    const notes = await aroundWrite(P(`/issues/${issue.iid}/notes?activity_filter=only_comments`), async () => (await expectStatus(dev.post(P(`/issues/${issue.iid}/notes`), { body: `note ${i}` }), 201)).body);
    expect(notes.after.body.map((n: { id: number }) => n.id)).toEqual([notes.written.id]);
    expect((await expectStatus(dev.get(P(`/issues/${issue.iid}`)), 200)).body.user_notes_count).toBe(1);

    const todos = await aroundWrite(`/todos?project_id=${projectId}&per_page=1`, () => expectStatus(dev.post(P(`/issues/${issue.iid}/todo`)), 201));
    expect(todos.after.headers.get('x-total')).toBe(String(i));
  }

  it('sees every write at once, whichever replica answers (20 rounds, the replicas swapping roles each round)', async () => {
    for (let i = 1; i <= 20; i++) {
      proxy.writer = i % 2;
      await round(i);
    }
    const reads = proxy.log.filter((c) => c.method === 'GET' && c.path.startsWith('/api/v4/'));
    const writes = proxy.log.filter((c) => c.method !== 'GET');
    expect(new Set(reads.map((c) => c.replica))).toEqual(new Set([0, 1]));
    expect(new Set(writes.map((c) => c.replica))).toEqual(new Set([0, 1]));
  }, 120_000);
});
