import type { Actor } from '@anvil/auth';
import { addMember, asOnGroup, events, Identity, makeGroup, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
let owner: Actor;
let maintainer: Actor;
let developer: Actor;
let root: Actor;
beforeAll(async () => {
  svc = await startIdentity();
  owner = await makeUser(svc);
  maintainer = await makeUser(svc);
  developer = await makeUser(svc);
  root = await rootActor(svc);
});
afterAll(async () => svc?.stop());

const attributes = {
  author_email_regex: '^[A-Za-z0-9.]+@gitlab.com$',
  commit_committer_check: true,
  commit_committer_name_check: true,
  commit_message_negative_regex: '[x+]',
  commit_message_regex: '[a-zA-Z]',
  deny_delete_tag: false,
  max_file_size: 100,
  member_check: false,
  prevent_secrets: true,
  reject_unsigned_commits: true,
  reject_non_dco_commits: true,
};
const AT_LEAST_ONE =
  'deny_delete_tag, member_check, prevent_secrets, commit_message_regex, commit_message_negative_regex, branch_name_regex, author_email_regex, file_name_regex, max_file_size, commit_committer_check, commit_committer_name_check, reject_unsigned_commits, reject_non_dco_commits are missing, at least one parameter must be provided';

/** A group owned by `owner` with a Maintainer and a Developer. */
async function group(attrs: Record<string, unknown> = {}) {
  const g = await makeGroup(svc, owner, attrs);
  await addMember(svc, 'groups', g.id, maintainer, 40);
  await addMember(svc, 'groups', g.id, developer, 30);
  return g;
}

const as = (user: Actor | null, id: number) => asOnGroup(svc, user, id);
const url = (id: number) => `/api/v4/groups/${id}/push_rule`;

async function withRule(body: Record<string, unknown> = attributes) {
  const g = await group();
  const res = await (await as(owner, g.id)).post(url(g.id)).send(body).expect(201);
  return { g, rule: res.body as { id: number; created_at: string } };
}

describe('GET /groups/:id/push_rule', () => {
  it('returns every attribute to an Owner', async () => {
    const { g, rule } = await withRule();
    const res = await (await as(owner, g.id)).get(url(g.id)).expect(200);
    expect(res.body).toEqual({
      id: rule.id,
      created_at: rule.created_at,
      commit_message_regex: '[a-zA-Z]',
      commit_message_negative_regex: '[x+]',
      branch_name_regex: null,
      author_email_regex: '^[A-Za-z0-9.]+@gitlab.com$',
      file_name_regex: null,
      deny_delete_tag: false,
      member_check: false,
      prevent_secrets: true,
      max_file_size: 100,
      commit_committer_check: true,
      commit_committer_name_check: true,
      reject_unsigned_commits: true,
      reject_non_dco_commits: true,
    });
    expect(Object.keys(res.body)).toEqual(['id', 'created_at', 'commit_message_regex', 'commit_message_negative_regex', 'branch_name_regex', 'author_email_regex', 'file_name_regex', 'deny_delete_tag', 'member_check', 'prevent_secrets', 'max_file_size', 'commit_committer_check', 'commit_committer_name_check', 'reject_unsigned_commits', 'reject_non_dco_commits']);
    expect(rule.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('returns it to an administrator and by full path', async () => {
    const { g, rule } = await withRule();
    expect((await svc.as({ user: root }).get(`/api/v4/groups/${encodeURIComponent(g.full_path)}/push_rule`).expect(200)).body.id).toBe(rule.id);
  });

  it('returns 404 Not Found when the group has none', async () => {
    const g = await group();
    expect((await (await as(owner, g.id)).get(url(g.id)).expect(404)).body).toEqual({ message: '404 Not Found' });
  });

  it('refuses anonymous callers (401), Maintainers and Developers (403), and hides a private group from others (404)', async () => {
    const { g } = await withRule();
    const stranger = await makeUser(svc);
    expect((await (await as(null, g.id)).get(url(g.id)).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    for (const u of [maintainer, developer]) expect((await (await as(u, g.id)).get(url(g.id)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await svc.as({ user: stranger }).get(url(g.id)).expect(404)).body).toEqual({ message: '404 Group Not Found' });
  });

  it('lets an Owner of the parent group manage a subgroup’s rule', async () => {
    const parent = await group();
    const sub = await makeGroup(svc, owner, { parent_id: parent.id });
    const other = await makeUser(svc);
    await addMember(svc, 'groups', parent.id, other, 50);
    await (await as(other, sub.id)).post(url(sub.id)).send({ deny_delete_tag: true }).expect(201);
  });
});

describe('POST /groups/:id/push_rule', () => {
  it('creates the rule (201), stores it and publishes identity.push_rule.created', async () => {
    const { g, rule } = await withRule();
    const row = await svc.deps.db('group_push_rules').where({ namespace_id: g.id }).first();
    expect(row).toMatchObject({ ...attributes, id: rule.id, branch_name_regex: null, file_name_regex: null });
    expect((await events(svc, 'identity.push_rule.created', { id: rule.id })).map((e) => e.data)).toEqual([{ id: rule.id, group_id: g.id, actor_id: owner.id }]);
  });

  it('applies GitLab’s defaults to attributes not sent', async () => {
    const { rule } = await withRule({ commit_message_regex: 'JIRA-\\d+' });
    expect(rule).toMatchObject({ deny_delete_tag: null, member_check: false, prevent_secrets: false, max_file_size: 0, commit_committer_check: null, commit_committer_name_check: false, reject_unsigned_commits: null, reject_non_dco_commits: null });
  });

  it('keeps a false setting that falls back to the instance rule as null (there is none)', async () => {
    const { rule } = await withRule({ commit_committer_check: false, reject_unsigned_commits: false, reject_non_dco_commits: false, commit_committer_name_check: false, member_check: false });
    expect(rule).toMatchObject({ commit_committer_check: null, reject_unsigned_commits: null, reject_non_dco_commits: null, commit_committer_name_check: false, member_check: false });
  });

  it('accepts python-gitlab’s form booleans', async () => {
    const g = await group();
    const res = await (await as(owner, g.id)).post(url(g.id)).type('form').send({ deny_delete_tag: 'True', max_file_size: '5' }).expect(201);
    expect(res.body).toMatchObject({ deny_delete_tag: true, max_file_size: 5 });
  });

  it('returns 422 when the group has one', async () => {
    const { g } = await withRule();
    expect((await (await as(owner, g.id)).post(url(g.id)).send({ deny_delete_tag: true }).expect(422)).body).toEqual({ message: 'Group push rule exists, try updating' });
  });

  it('returns 400 without any attribute', async () => {
    const g = await group();
    expect((await (await as(owner, g.id)).post(url(g.id)).send({}).expect(400)).body).toEqual({ error: AT_LEAST_ONE });
  });

  it('returns 400 for a regex RE2 refuses, a too long one and a negative file size', async () => {
    const g = await group();
    const res = await (await as(owner, g.id))
      .post(url(g.id))
      .send({ commit_message_regex: '(fix', branch_name_regex: 'x'.repeat(512), file_name_regex: '(?!exe)', max_file_size: -1 })
      .expect(400);
    expect(res.body).toEqual({
      message: {
        max_file_size: ['must be greater than or equal to 0'],
        commit_message_regex: ['not valid RE2 syntax: missing ): (fix'],
        branch_name_regex: ['is too long (maximum is 511 characters)'],
        file_name_regex: ['not valid RE2 syntax: invalid perl operator: (?!'],
      },
    });
    expect(await svc.deps.db('group_push_rules').where({ namespace_id: g.id })).toEqual([]);
  });

  it('returns 400 for a value of the wrong type', async () => {
    const g = await group();
    expect((await (await as(owner, g.id)).post(url(g.id)).send({ max_file_size: 'big' }).expect(400)).body).toEqual({ error: 'max_file_size is invalid' });
  });

  it('lets an administrator create one and refuses Maintainers and anonymous callers', async () => {
    const g = await group();
    expect((await (await as(null, g.id)).post(url(g.id)).send({ deny_delete_tag: true }).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await (await as(maintainer, g.id)).post(url(g.id)).send({ deny_delete_tag: true }).expect(403)).body).toEqual({ message: '403 Forbidden' });
    await svc.as({ user: root }).post(url(g.id)).send({ deny_delete_tag: true }).expect(201);
    expect(await events(svc, 'identity.push_rule.created', { group_id: g.id, actor_id: root.id })).toHaveLength(1);
  });
});

describe('PUT /groups/:id/push_rule', () => {
  it('changes only the attributes sent and publishes identity.push_rule.updated', async () => {
    const { g, rule } = await withRule();
    const res = await (await as(owner, g.id))
      .put(url(g.id))
      .send({ author_email_regex: '^[A-Za-z0-9.]+@disney.com$', reject_unsigned_commits: true, commit_committer_name_check: false, commit_committer_check: false, commit_message_regex: null })
      .expect(200);
    expect(res.body).toMatchObject({ id: rule.id, created_at: rule.created_at, author_email_regex: '^[A-Za-z0-9.]+@disney.com$', commit_message_regex: null, commit_message_negative_regex: '[x+]', commit_committer_name_check: false, commit_committer_check: null, max_file_size: 100 });
    expect((await svc.deps.db('group_push_rules').where({ id: rule.id }).first()).author_email_regex).toBe('^[A-Za-z0-9.]+@disney.com$');
    expect(await events(svc, 'identity.push_rule.updated', { id: rule.id, actor_id: owner.id })).toHaveLength(1);
  });

  it('returns 404 Push rule Not Found when the group has none', async () => {
    const g = await group();
    expect((await (await as(owner, g.id)).put(url(g.id)).send({ deny_delete_tag: true }).expect(404)).body).toEqual({ message: '404 Push rule Not Found' });
  });

  it('returns 400 without any attribute and for an invalid regex', async () => {
    const { g } = await withRule();
    expect((await (await as(owner, g.id)).put(url(g.id)).send({}).expect(400)).body).toEqual({ error: AT_LEAST_ONE });
    expect((await (await as(owner, g.id)).put(url(g.id)).send({ branch_name_regex: '[a-' }).expect(400)).body).toEqual({ message: { branch_name_regex: ['not valid RE2 syntax: missing ]: [a-'] } });
  });

  it('refuses a Developer (403) and lets an administrator edit', async () => {
    const { g } = await withRule();
    expect((await (await as(developer, g.id)).put(url(g.id)).send({ max_file_size: 1 }).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await svc.as({ user: root }).put(url(g.id)).send({ max_file_size: 1 }).expect(200)).body.max_file_size).toBe(1);
  });
});

describe('DELETE /groups/:id/push_rule', () => {
  it('deletes the rule (204) and publishes identity.push_rule.deleted', async () => {
    const { g, rule } = await withRule();
    await (await as(owner, g.id)).delete(url(g.id)).expect(204);
    expect(await svc.deps.db('group_push_rules').where({ namespace_id: g.id })).toEqual([]);
    expect((await events(svc, 'identity.push_rule.deleted', { id: rule.id })).map((e) => e.data)).toEqual([{ id: rule.id, group_id: g.id, actor_id: owner.id }]);
    expect((await (await as(owner, g.id)).delete(url(g.id)).expect(404)).body).toEqual({ message: '404 Not Found' });
  });

  it('refuses a Maintainer (403) and anonymous callers (401)', async () => {
    const { g } = await withRule();
    expect((await (await as(maintainer, g.id)).delete(url(g.id)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await (await as(null, g.id)).delete(url(g.id)).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    await svc.as({ user: root }).delete(url(g.id)).expect(204);
  });

  it('goes with its group', async () => {
    const { g, rule } = await withRule();
    await (await as(owner, g.id)).delete(`/api/v4/groups/${g.id}`).expect(202);
    expect(await svc.deps.db('group_push_rules').where({ id: rule.id })).toEqual([]);
  });
});
