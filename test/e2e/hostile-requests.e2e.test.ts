import http from 'node:http';
import { Fleet, pickWith as pick, seededRandom, startFleet } from '@anvil/testing';
import { client } from './http';

/**
 * Identity's and work-items' routes through the real gateway, the services as separate processes,
 * with what a hostile or broken client sends: ids out of every integer range, unknown enum values,
 * impossible dates, wrong types in JSON bodies, over-long strings. Generated from a fixed seed, so
 * a failure repeats (`HOSTILE_SEED`, `HOSTILE_REQUESTS` explore further). Every answer must be a
 * 2xx/3xx/4xx, never a 5xx or a hang, and what was stored before must still be there.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? 20261124);
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 1500);

describe('hostile requests through the fleet (identity, work-items)', () => {
  let fleet: Fleet;
  let ids: { project: number; group: number; user: number; iid: number; token: string };
  let sentinel: { id: number };

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = client(fleet.url, fleet.adminToken);
    const user = await admin.post('/users', { username: 'target', name: 'Target', email: 'target@example.com', password: 'Sup3r-secret-pw!', skip_confirmation: true });
    const token = await admin.post(`/users/${user.body.id}/personal_access_tokens`, { name: 'fuzz', scopes: ['api'] });
    const group = await admin.post('/groups', { name: 'Fuzz', path: 'fuzz' });
    const project = await admin.post('/projects', { name: 'Fuzz', path: 'fuzz', namespace_id: group.body.id });
    await admin.post(`/projects/${project.body.id}/members`, { user_id: user.body.id, access_level: 30 });
    // work-items learns of the project from identity's events: wait until it accepts an issue
    let issue = await admin.post(`/projects/${project.body.id}/issues`, { title: 'sentinel', description: 'must survive' });
    for (let i = 0; i < 100 && issue.status !== 201; i++) {
      await new Promise((res) => setTimeout(res, 100));
      issue = await admin.post(`/projects/${project.body.id}/issues`, { title: 'sentinel', description: 'must survive' });
    }
    expect(issue.status).toBe(201);
    sentinel = { id: issue.body.id };
    ids = { project: project.body.id, group: group.body.id, user: user.body.id, iid: issue.body.iid, token: token.body.token };
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const NUMBERS = ['0', '-1', '1.5', '1e3', 'abc', '2147483648', '9223372036854775808', '99999999999999999999999', '0x10', '%20', 'null'];
  const VALUES = [
    '', 'x', 'a'.repeat(3000), '-1', '0', '99999999999999999999999', '2147483648', 'true', 'yes', 'null', 'None', 'Any', 'asc', 'DESC', 'drop table',
    '2026-13-45', '2026-02-30T25:61:00Z', '0000-00-00', '1e308', 'NaN', '%2F', '..', '*', '%C3%A9', '%E2%80%AE', 'a,b,,c', '[]', '{}',
  ];
  const FILTERS = [
    'page', 'per_page', 'sort', 'order_by', 'state', 'scope', 'labels', 'milestone', 'search', 'in', 'created_after', 'created_before', 'updated_after',
    'updated_before', 'due_date', 'iids[]', 'author_id', 'author_username', 'assignee_id', 'assignee_username[]', 'confidential', 'issue_type', 'weight',
    'my_reaction_emoji', 'with_labels_details', 'not[labels]', 'not[author_id]', 'not[iids][]', 'epic_id', 'iteration_id', 'health_status',
    'non_archived', 'visibility', 'owned', 'membership', 'min_access_level', 'statistics', 'with_issues_enabled', 'all_available', 'top_level_only',
    'skip_groups[]', 'active', 'blocked', 'external', 'username', 'extern_uid', 'provider', 'two_factor', 'without_projects', 'admins', 'action', 'type',
    'target_type', 'include_subgroups', 'simple', 'search_namespaces', 'topic', 'last_activity_after', 'id_after', 'id_before', 'pagination', 'cursor',
  ];
  const FIELDS = [
    'title', 'description', 'labels', 'add_labels', 'remove_labels', 'assignee_ids', 'assignee_id', 'milestone_id', 'due_date', 'confidential', 'weight',
    'state_event', 'issue_type', 'created_at', 'discussion_locked', 'iid', 'epic_id', 'body', 'internal', 'name', 'duration', 'summary', 'color',
    'priority', 'start_date', 'state', 'username', 'email', 'password', 'access_level', 'expires_at', 'scopes', 'visibility', 'namespace_id', 'path',
    'parent_id', 'user_id', 'admin', 'skip_confirmation', 'projects_limit', 'new_name', 'target_branch', 'source_branch', 'merge_request_to_resolve_discussions_of',
  ];
  const JSON_VALUES: unknown[] = [
    null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 63, 1e308, -1e308, '', 'x', 'a'.repeat(100_000), '2026-13-45', '-1h', '99999999999h', '1mo2w', '  ',
    [], ['a', 'b'], [1, 2], [null], ['a'.repeat(300)], [[[]]], {}, { a: 1 }, { __proto__: { admin: true } }, '<script>alert(1)</script>', 'DROP TABLE users;--',
  ];

  function route(r: () => number): string {
    const n = (real: number) => (r() < 0.8 ? String(real) : pick(r, NUMBERS));
    const project = r() < 0.2 ? 'fuzz%2Ffuzz' : n(ids.project);
    const group = r() < 0.2 ? 'fuzz' : n(ids.group);
    const iid = n(ids.iid);
    return pick(r, [
      '/user', `/users`, `/users/${n(ids.user)}`, `/users/${n(ids.user)}/block`, `/users/${n(ids.user)}/unblock`, `/users/${n(ids.user)}/personal_access_tokens`,
      '/user/personal_access_tokens', '/personal_access_tokens', `/personal_access_tokens/${n(1)}`, '/personal_access_tokens/self', '/namespaces',
      '/groups', `/groups/${group}`, `/groups/${group}/subgroups`, `/groups/${group}/descendant_groups`, `/groups/${group}/projects`, `/groups/${group}/members`,
      `/groups/${group}/members/all`, `/groups/${group}/members/${n(ids.user)}`, `/groups/${group}/issues`, `/groups/${group}/issues_statistics`,
      `/groups/${group}/labels`, `/groups/${group}/milestones`, `/groups/${group}/epics`, `/groups/${group}/epics/${n(1)}`, `/groups/${group}/merge_requests`,
      '/projects', `/projects/${project}`, `/projects/${project}/members`, `/projects/${project}/members/all`, `/projects/${project}/members/${n(ids.user)}`,
      '/issues', `/issues/${n(sentinel.id)}`, '/issues_statistics', '/todos', `/todos/${n(1)}/mark_as_done`, '/todos/mark_as_done', '/merge_requests',
      `/projects/${project}/issues`, `/projects/${project}/issues/${iid}`, `/projects/${project}/issues/${iid}/notes`, `/projects/${project}/issues/${iid}/notes/${n(1)}`,
      `/projects/${project}/issues/${iid}/award_emoji`, `/projects/${project}/issues/${iid}/award_emoji/${n(1)}`, `/projects/${project}/issues/${iid}/closed_by`,
      `/projects/${project}/issues/${iid}/related_merge_requests`, `/projects/${project}/issues/${iid}/subscribe`, `/projects/${project}/issues/${iid}/unsubscribe`,
      `/projects/${project}/issues/${iid}/todo`, `/projects/${project}/issues/${iid}/time_estimate`, `/projects/${project}/issues/${iid}/reset_time_estimate`,
      `/projects/${project}/issues/${iid}/add_spent_time`, `/projects/${project}/issues/${iid}/reset_spent_time`, `/projects/${project}/issues/${iid}/time_stats`,
      `/projects/${project}/issues_statistics`, `/projects/${project}/labels`, `/projects/${project}/labels/${n(1)}`, `/projects/${project}/milestones`,
      `/projects/${project}/milestones/${n(1)}`, `/projects/${project}/merge_requests`, `/projects/${project}/merge_requests/${n(1)}`,
      `/projects/${project}/merge_requests/${n(1)}/merge`,
    ]);
  }

  function query(r: () => number): string {
    const k = Math.floor(r() * 4);
    const parts: string[] = [];
    for (let i = 0; i < k; i++) parts.push(`${pick(r, FILTERS)}=${encodeURIComponent(pick(r, VALUES)).replace(/%25/g, '%')}`);
    return parts.length ? `?${parts.join('&')}` : '';
  }

  function body(r: () => number): Buffer | undefined {
    if (r() < 0.1) return pick(r, [Buffer.from('{"title":'), Buffer.from('[1,2'), Buffer.from('"just a string"'), Buffer.from('null'), Buffer.alloc(0)]);
    const o: Record<string, unknown> = {};
    const k = 1 + Math.floor(r() * 5);
    for (let i = 0; i < k; i++) o[pick(r, FIELDS)] = r() < 0.3 ? 'plausible' : pick(r, JSON_VALUES);
    return Buffer.from(JSON.stringify(o));
  }

  function send(method: string, path: string, headers: Record<string, string>, data?: Buffer): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(fleet.url, { method, path, headers: { ...headers, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': String(data.length) } : {}) }, agent: false, timeout: 15_000 }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('no answer in 15 s')));
      req.on('error', reject);
      req.end(data);
    });
  }

  it(`${REQUESTS} hostile requests: never a 5xx, never a hang, the stored issue still there`, async () => {
    const r = seededRandom(SEED);
    const failures: string[] = [];
    const seen = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      // never DELETE the fuzzed project, group, users, tokens or the sentinel issue: the run needs them
      const method = pick(r, ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE']);
      const path = `/api/v4${route(r)}${query(r)}`;
      if (method === 'DELETE' && /^\/api\/v4\/(users|groups|projects)\/[^/?]+(\?|$)|\/issues\/[^/?]+(\?|$)|personal_access_tokens/.test(path)) continue;
      const who = pick<Record<string, string>>(r, [{ 'PRIVATE-TOKEN': fleet.adminToken }, { 'PRIVATE-TOKEN': fleet.adminToken }, { 'PRIVATE-TOKEN': ids.token }, { 'PRIVATE-TOKEN': ids.token }, {}, { 'PRIVATE-TOKEN': 'glpat-nope' }]);
      const data = method === 'GET' ? undefined : body(r);
      const a = await send(method, path, who, data).catch((e: Error) => ({ status: 0, body: e.message }));
      seen.set(a.status, (seen.get(a.status) ?? 0) + 1);
      if (a.status === 0 || a.status >= 500) failures.push(`#${i} ${method} ${path.slice(0, 300)} ${data ? data.toString().slice(0, 300) : ''} → ${a.status} ${a.body.slice(0, 200)}`);
    }
    if (process.env.HOSTILE_VERBOSE) console.log(Object.fromEntries(seen));
    expect(failures).toEqual([]);
    expect(seen.get(200) ?? 0).toBeGreaterThan(0);
    const admin = client(fleet.url, fleet.adminToken);
    expect((await admin.get('/user')).body).toMatchObject({ username: 'root' });
    const after = await admin.get(`/issues/${sentinel.id}`);
    expect(after.status).toBe(200);
  }, 600_000);
});
