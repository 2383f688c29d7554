import { addMember, asOnGroup, Identity, makeGroup, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

const URL = 'http://93.184.216.34/hook';
const FLAGS_OFF = {
  tag_push_events: false, merge_requests_events: false, repository_update_events: false, issues_events: false, confidential_issues_events: false,
  note_events: false, confidential_note_events: null, pipeline_events: false, wiki_page_events: false, job_events: false, deployment_events: false,
  feature_flag_events: false, releases_events: false, milestone_events: false, subgroup_events: false, emoji_events: false,
  resource_access_token_events: false, member_events: false, vulnerability_events: false, project_events: false,
};

async function ownerWithGroup() {
  const owner = await makeUser(svc);
  const group = await makeGroup(svc, owner);
  return { owner, group, api: await asOnGroup(svc, owner, group.id) };
}

describe('POST /groups/:id/hooks', () => {
  describe('as the Owner', () => {
    it('creates a hook with GitLab defaults, stores the token and never returns it', async () => {
      const { group, api } = await ownerWithGroup();
      const res = await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL, token: 's3cret', issues_events: true, custom_headers: [{ key: 'X-Custom', value: 'v' }] }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number), url: URL, name: null, description: null, created_at: expect.any(String), push_events: true, enable_ssl_verification: true,
        alert_status: 'executable', disabled_until: null, url_variables: [], push_events_branch_filter: null, branch_filter_strategy: 'wildcard',
        custom_webhook_template: null, custom_headers: [{ key: 'X-Custom' }], group_id: group.id, ...FLAGS_OFF, issues_events: true,
      });
      const row = await svc.deps.db('web_hooks').where({ id: res.body.id }).first();
      expect(row).toMatchObject({ token: 's3cret', custom_headers: { 'X-Custom': 'v' }, group_id: group.id });
    });

    it('stores URL variables as a map and validates the interpolated URL', async () => {
      const { group, api } = await ownerWithGroup();
      const res = await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://93.184.216.34/{path}', url_variables: [{ key: 'path', value: 'secret-path' }] }).expect(201);
      expect(res.body.url_variables).toEqual([{ key: 'path' }]);
      expect((await svc.deps.db('web_hooks').where({ id: res.body.id }).first()).url_variables).toEqual({ path: 'secret-path' });
      const bad = await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://{host}/x', url_variables: [{ key: 'host', value: '127.0.0.1' }] }).expect(422);
      expect(bad.body).toEqual({ error: 'Invalid url given' });
    });

    it('returns 400 when url is missing', async () => {
      const { group, api } = await ownerWithGroup();
      expect((await api.post(`/api/v4/groups/${group.id}/hooks`).send({}).expect(400)).body).toEqual({ error: 'url is missing' });
    });

    it.each([['http://127.0.0.1/'], ['http://2130706433/'], ['http://[::ffff:127.0.0.1]/'], ['http://169.254.169.254/'], ['http://10.0.0.1/'], ['http://localhost/'], ['ftp://93.184.216.34/']])('refuses %s with 422 Invalid url given', async (url) => {
      const { group, api } = await ownerWithGroup();
      expect((await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url }).expect(422)).body).toEqual({ error: 'Invalid url given' });
      expect(await svc.deps.db('web_hooks').where({ group_id: group.id })).toEqual([]);
    });

    it('returns 422 for a token with a line break and for invalid custom headers', async () => {
      const { group, api } = await ownerWithGroup();
      expect((await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL, token: 'a\nb' }).expect(422)).body).toEqual({ error: 'Token is invalid' });
      const headers = await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL, custom_headers: [{ key: '1bad', value: 'x' }] }).expect(422);
      expect(headers.body).toEqual({ error: 'Custom headers must be a valid json schema' });
    });
  });

  describe('as a Maintainer', () => {
    it('returns 403', async () => {
      const { group } = await ownerWithGroup();
      const maintainer = await makeUser(svc);
      await addMember(svc, 'groups', group.id, maintainer, 40);
      await (await asOnGroup(svc, maintainer, group.id)).post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(403);
    });
  });

  describe('as an anonymous caller', () => {
    it('returns 401 for a public group', async () => {
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner, { visibility: 'public' });
      await (await asOnGroup(svc, null, group.id)).post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(401);
    });
  });

  describe('with local requests allowed by the instance settings', () => {
    afterEach(async () => {
      await svc.as({ user: await rootActor(svc) }).put('/api/v4/application/settings').send({ allow_local_requests_from_web_hooks_and_services: false, outbound_local_requests_whitelist: [] });
    });
    it('accepts loopback but still refuses cloud metadata', async () => {
      await svc.as({ user: await rootActor(svc) }).put('/api/v4/application/settings').send({ allow_local_requests_from_web_hooks_and_services: true }).expect(200);
      const { group, api } = await ownerWithGroup();
      await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://127.0.0.1:9/' }).expect(201);
      await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://169.254.169.254/' }).expect(422);
    });
    it('accepts an allowlisted address', async () => {
      await svc.as({ user: await rootActor(svc) }).put('/api/v4/application/settings').send({ outbound_local_requests_whitelist: ['10.1.0.0/16'] }).expect(200);
      const { group, api } = await ownerWithGroup();
      await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://10.1.2.3/' }).expect(201);
      await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://10.2.2.3/' }).expect(422);
    });
  });
});

describe('GET /groups/:id/hooks', () => {
  it('lists the group’s hooks, paginated, to the Owner', async () => {
    const { group, api } = await ownerWithGroup();
    for (const n of [1, 2, 3]) await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: `${URL}${n}` }).expect(201);
    const res = await api.get(`/api/v4/groups/${group.id}/hooks?per_page=2`).expect(200);
    expect(res.body.map((h: { url: string }) => h.url)).toEqual([`${URL}1`, `${URL}2`]);
    expect(res.headers['x-total']).toBe('3');
  });

  it('returns 404 for a private group the caller cannot see and 403 to a Developer', async () => {
    const { group } = await ownerWithGroup();
    const stranger = await makeUser(svc);
    expect((await (await asOnGroup(svc, stranger, group.id)).get(`/api/v4/groups/${group.id}/hooks`).expect(404)).body).toEqual({ message: '404 Group Not Found' });
    const dev = await makeUser(svc);
    await addMember(svc, 'groups', group.id, dev, 30);
    await (await asOnGroup(svc, dev, group.id)).get(`/api/v4/groups/${group.id}/hooks`).expect(403);
  });
});

describe('GET /groups/:id/hooks/:hook_id', () => {
  it('returns the hook to the Owner and 404 for a hook of another group', async () => {
    const a = await ownerWithGroup();
    const b = await ownerWithGroup();
    const hook = (await a.api.post(`/api/v4/groups/${a.group.id}/hooks`).send({ url: URL }).expect(201)).body;
    expect((await a.api.get(`/api/v4/groups/${a.group.id}/hooks/${hook.id}`).expect(200)).body).toEqual(hook);
    expect((await b.api.get(`/api/v4/groups/${b.group.id}/hooks/${hook.id}`).expect(404)).body).toEqual({ message: '404 Not found' });
  });

  it('lets an administrator read it', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(201)).body;
    await (await asOnGroup(svc, await rootActor(svc), group.id)).get(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(200);
  });
});

describe('PUT /groups/:id/hooks/:hook_id', () => {
  it('changes only the given attributes and merges custom headers', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL, token: 't', custom_headers: [{ key: 'A', value: '1' }] }).expect(201)).body;
    const res = await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}`).send({ note_events: true, custom_headers: [{ key: 'B', value: '2' }] }).expect(200);
    expect(res.body).toMatchObject({ note_events: true, push_events: true, custom_headers: [{ key: 'A' }, { key: 'B' }] });
    expect((await svc.deps.db('web_hooks').where({ id: hook.id }).first()).token).toBe('t');
  });

  it('clears the token and custom headers when the URL changes without them', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL, token: 't', custom_headers: [{ key: 'A', value: '1' }] }).expect(201)).body;
    const res = await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}`).send({ url: `${URL}/new` }).expect(200);
    expect(res.body).toMatchObject({ url: `${URL}/new`, custom_headers: [] });
    expect((await svc.deps.db('web_hooks').where({ id: hook.id }).first()).token).toBeNull();
    await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}`).send({ url: URL, token: 'new' }).expect(200);
    expect((await svc.deps.db('web_hooks').where({ id: hook.id }).first()).token).toBe('new');
  });

  it('returns 400 without parameters and 422 for an internal URL', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(201)).body;
    expect((await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}`).send({}).expect(400)).body).toEqual({ error: 'No parameters provided' });
    expect((await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}`).send({ url: 'http://0x7f000001/' }).expect(422)).body).toEqual({ error: 'Invalid url given' });
  });
});

describe('DELETE /groups/:id/hooks/:hook_id', () => {
  it('deletes the hook (204), then answers 404', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(201)).body;
    await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(204);
    expect(await svc.deps.db('web_hooks').where({ id: hook.id })).toEqual([]);
    await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(404);
  });

  it('answers 412 when the hook changed after If-Unmodified-Since', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(201)).body;
    await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}`).set('If-Unmodified-Since', new Date(Date.now() - 3600_000).toUTCString()).expect(412);
  });
});

describe('GET /groups/:id/hooks/:hook_id/events', () => {
  it('lists recent deliveries, newest first, filtered by status', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(201)).body;
    const base = { web_hook_id: hook.id, trigger: 'issue_hooks', url: URL, url_hash: 'h', request_headers: '{}', request_data: '{}', response_headers: '{}', response_body: 'ok', execution_duration: 0.1 };
    await svc.deps.db('web_hook_logs').insert([{ ...base, response_status: '200' }, { ...base, response_status: '500' }, { ...base, response_status: 'internal error' }]);
    const all = await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}/events`).expect(200);
    expect(all.body).toHaveLength(3);
    expect(all.body[0]).toEqual({ id: expect.any(Number), url: URL, trigger: 'issue_hooks', request_headers: {}, request_data: {}, response_headers: {}, response_body: 'ok', execution_duration: 0.1, response_status: 'internal error', created_at: expect.any(String) });
    const failed = await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}/events?status=server_failure`).expect(200);
    expect(failed.body.map((l: { response_status: string }) => l.response_status)).toEqual(['internal error', '500']);
    await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}/events?per_page=21`).expect(400);
  });
});

describe('PUT /groups/:id/hooks/:hook_id/url_variables/:key', () => {
  it('sets a variable (204), refuses an illegal key or a value making the URL internal (422)', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://93.184.216.34/{path}', url_variables: [{ key: 'path', value: 'a' }] }).expect(201)).body;
    await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}/url_variables/path`).send({ value: 'b' }).expect(204);
    expect((await svc.deps.db('web_hooks').where({ id: hook.id }).first()).url_variables).toEqual({ path: 'b' });
    expect((await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}/url_variables/1bad`).send({ value: 'x' }).expect(422)).body).toEqual({ error: 'Illegal key or value' });
    await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}/url_variables/path`).send({}).expect(400);
  });
});

describe('DELETE /groups/:id/hooks/:hook_id/url_variables/:key', () => {
  it('answers 404 for an unknown key and 422 when the URL still needs the variable', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: 'http://93.184.216.34/{path}', url_variables: [{ key: 'path', value: 'a' }, { key: 'spare', value: 's' }] }).expect(201)).body;
    expect((await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}/url_variables/nope`).expect(404)).body).toEqual({ message: '404 URL variable Not Found' });
    expect((await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}/url_variables/path`).expect(422)).body).toEqual({ error: 'Could not unset variable' });
    await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}/url_variables/spare`).expect(204);
  });
});

describe('PUT and DELETE /groups/:id/hooks/:hook_id/custom_headers/:key', () => {
  it('sets and removes a header, 404 for an unknown one', async () => {
    const { group, api } = await ownerWithGroup();
    const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: URL }).expect(201)).body;
    await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}/custom_headers/X-Api-Key`).send({ value: 'k' }).expect(204);
    expect((await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(200)).body.custom_headers).toEqual([{ key: 'X-Api-Key' }]);
    await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}/custom_headers/X-Api-Key`).expect(204);
    expect((await api.delete(`/api/v4/groups/${group.id}/hooks/${hook.id}/custom_headers/X-Api-Key`).expect(404)).body).toEqual({ message: '404 Custom header Not Found' });
  });
});
