import { Fleet, startFleet } from '@anvil/testing';
import { call as setup, userWithToken } from './support/fleet-api';

interface Answer { status: number; body: any; total: string | null }

async function call(fleet: Fleet, token: string, method: string, p: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, total: res.headers.get('x-total') };
}

/** Polls `check` until it holds (events travel over the broker; the gateway caches resolutions for a few seconds). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`never: ${what}`);
}

/**
 * A private project shared with a group, through the real gateway and RabbitMQ: the group's member
 * finds its issues in the instance-wide list (with X-Total), reads an issue and its notes, sees
 * confidential issues only when the share grants Reporter or more, and loses all of it when the
 * share is removed; an expired share grants nothing. The invited group's own issue list never
 * covers the shared project (GitLab lists the projects in a group's hierarchy only).
 */
describe('issues of a project shared with a group, through the gateway', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let member: { id: number; token: string };
  let home: number;
  let guests: number;
  let projectId: number;
  let open: { iid: number };
  let secret: { iid: number };

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = (m: string, p: string, b?: unknown) => setup(fleet, fleet.adminToken, m, p, b);
    owner = await userWithToken(fleet, 'shareowner');
    member = await userWithToken(fleet, 'sharemember');
    home = (await admin('POST', '/groups', { name: 'Home', path: 'home', visibility: 'private' })).id;
    guests = (await admin('POST', '/groups', { name: 'Guests', path: 'guests', visibility: 'private' })).id;
    projectId = (await admin('POST', '/projects', { name: 'Ledger', path: 'ledger', namespace_id: home, visibility: 'private' })).id;
    await admin('POST', `/groups/${home}/members`, { user_id: owner.id, access_level: 50 });
    await admin('POST', `/groups/${guests}/members`, { user_id: owner.id, access_level: 10 });
    await admin('POST', `/groups/${guests}/members`, { user_id: member.id, access_level: 40 });
    await eventually(async () => (await call(fleet, owner.token, 'GET', `/projects/${projectId}/issues`)).status === 200, 'the owner reaches the project');
    open = (await call(fleet, owner.token, 'POST', `/projects/${projectId}/issues`, { title: 'Books' })).body;
    secret = (await call(fleet, owner.token, 'POST', `/projects/${projectId}/issues`, { title: 'Payroll', confidential: true })).body;
    await call(fleet, owner.token, 'POST', `/projects/${projectId}/issues/${open.iid}/notes`, { body: 'balanced' });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const listed = async () => {
    const r = await call(fleet, member.token, 'GET', '/issues?scope=all');
    return { status: r.status, titles: (r.body as { title: string }[]).map((i) => i.title).sort(), total: r.total };
  };
  const share = async (access: number, expiresAt?: string) => {
    const r = await call(fleet, owner.token, 'POST', `/projects/${projectId}/share`, { group_id: guests, group_access: access, ...(expiresAt ? { expires_at: expiresAt } : {}) });
    expect(r.status).toBe(201);
  };
  const unshare = async () => expect((await call(fleet, owner.token, 'DELETE', `/projects/${projectId}/share/${guests}`)).status).toBe(204);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

  it('a Reporter share shows every issue, with X-Total, an issue and its notes; the unshare hides them again', async () => {
    expect(await listed()).toEqual({ status: 200, titles: [], total: '0' });
    await share(20);
    await eventually(async () => same(await listed(), { status: 200, titles: ['Books', 'Payroll'], total: '2' }), 'both issues listed after the share');
    await eventually(async () => (await call(fleet, member.token, 'GET', `/projects/${projectId}/issues/${secret.iid}`)).status === 200, 'the gateway resolves the share');
    const issue = await call(fleet, member.token, 'GET', `/projects/${projectId}/issues/${open.iid}`);
    expect([issue.status, issue.body.title]).toEqual([200, 'Books']);
    const notes = await call(fleet, member.token, 'GET', `/projects/${projectId}/issues/${open.iid}/notes`);
    expect([notes.status, notes.body.map((n: { body: string }) => n.body)]).toEqual([200, ['balanced']]);

    // the invited group's issue list covers its own hierarchy only
    const groupList = await call(fleet, member.token, 'GET', `/groups/${guests}/issues`);
    expect([groupList.status, groupList.body, groupList.total]).toEqual([200, [], '0']);

    await unshare();
    await eventually(async () => same(await listed(), { status: 200, titles: [], total: '0' }), 'no issues listed after the unshare');
    await eventually(async () => (await call(fleet, member.token, 'GET', `/projects/${projectId}/issues/${open.iid}`)).status === 404, 'the issue is hidden after the unshare');
  });

  it('a Guest share hides the confidential issue (although the member is a Maintainer of the group)', async () => {
    await share(10);
    await eventually(async () => same(await listed(), { status: 200, titles: ['Books'], total: '1' }), 'the open issue listed after the share');
    await eventually(async () => (await call(fleet, member.token, 'GET', `/projects/${projectId}/issues/${open.iid}`)).status === 200, 'the gateway resolves the share');
    expect((await call(fleet, member.token, 'GET', `/projects/${projectId}/issues/${secret.iid}`)).status).toBe(404);
    const projectList = await call(fleet, member.token, 'GET', `/projects/${projectId}/issues`);
    expect([projectList.body.map((i: { title: string }) => i.title), projectList.total]).toEqual([['Books'], '1']);
    await unshare();
    await eventually(async () => same(await listed(), { status: 200, titles: [], total: '0' }), 'no issues listed after the unshare');
  });

  it('an expired share grants nothing', async () => {
    await share(30, '2020-01-01');
    const other = await call(fleet, owner.token, 'POST', `/projects/${projectId}/issues`, { title: 'After' });
    expect(other.status).toBe(201);
    // the share's event has been applied once the issue created after it is in the owner's list; the member still sees nothing
    await eventually(async () => (await call(fleet, owner.token, 'GET', '/issues?scope=all')).total === '3', 'the owner lists the new issue');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await listed()).toEqual({ status: 200, titles: [], total: '0' });
    expect((await call(fleet, member.token, 'GET', `/projects/${projectId}/issues/${open.iid}`)).status).toBe(404);
    await unshare();
  });
});
