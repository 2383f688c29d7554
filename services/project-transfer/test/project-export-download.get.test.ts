import type { Actor } from '@anvil/auth';
import { binary, lines, readArchive } from './support/archive';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

let fleet: TransferFleet;
let owner: Actor;
let member: Actor;
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  fleet = await startTransferFleet({ PROJECT_DOWNLOAD_EXPORT_LIMIT: '2' });
  owner = await fleet.makeUser();
  member = await fleet.makeUser({ public_email: undefined });
  project = await fleet.makeProject(owner, { description: 'download source' });
  await fleet.addMember(project.id, member, 30);
  const wi = async (user: Actor) => fleet.workItems.as({ user, project: await fleet.scope(project.id, user) });
  const label = await (await wi(owner)).post(`/api/v4/projects/${project.id}/labels`).send({ name: 'bug', color: '#ff0000' }).expect(201);
  const milestone = await (await wi(owner)).post(`/api/v4/projects/${project.id}/milestones`).send({ title: 'v1' }).expect(201);
  const issue = await (await wi(owner)).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'first', description: 'd', labels: label.body.name, milestone_id: milestone.body.id, assignee_ids: [owner.id] }).expect(201);
  await (await wi(owner)).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'second' }).expect(201);
  await (await wi(member)).post(`/api/v4/projects/${project.id}/issues/${issue.body.iid}/notes`).send({ body: 'a comment' }).expect(201);
  await (await wi(member)).post(`/api/v4/projects/${project.id}/issues/${issue.body.iid}/award_emoji`).send({ name: 'thumbsup' }).expect(201);
});
afterAll(async () => fleet?.stop());

async function download(user: Actor) {
  return fleet.transfer.as({ user, project: await fleet.scope(project.id, user) }).get(`/api/v4/projects/${project.id}/export/download`).buffer(true).parse(binary);
}

describe('GET /projects/:id/export/download', () => {
  it('answers 404 Not found or has expired before any export', async () => {
    const res = await fleet.transfer.as({ user: owner, project: await fleet.scope(project.id, owner) }).get(`/api/v4/projects/${project.id}/export/download`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Not found or has expired' });
  });

  it('sends the finished archive in GitLab layout with the file name rule', async () => {
    await fleet.transfer.as({ user: owner, project: await fleet.scope(project.id, owner) }).post(`/api/v4/projects/${project.id}/export`).send({ description: 'overridden' }).expect(202);
    await eventually(async () => (await fleet.transfer.deps.db('project_exports').where({ project_id: project.id, user_id: owner.id }).first())?.job_status === 'finished');
    const res = await download(owner);
    expect(res.status).toBe(200);
    const file = `_${project.path_with_namespace.replace('/', '_')}_export.tar.gz`;
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{3}${file}"`));
    expect(res.headers['content-type']).toBe('application/octet-stream');
    const entries = await readArchive(res.body as Buffer);
    expect(entries.map((e) => e.name)).toEqual([
      './VERSION', './tree/', './tree/project.json', './tree/project/',
      './tree/project/auto_devops.ndjson', './tree/project/ci_cd_settings.ndjson', './tree/project/issues.ndjson', './tree/project/labels.ndjson', './tree/project/merge_requests.ndjson',
      './tree/project/milestones.ndjson', './tree/project/project_feature.ndjson', './tree/project/project_members.ndjson', './tree/project/snippets.ndjson',
    ]);
    const body = (name: string) => entries.find((e) => e.name === name)?.body ?? '';
    expect(body('./VERSION')).toBe('0.2.4');
    expect(JSON.parse(body('./tree/project.json'))).toMatchObject({ description: 'overridden', visibility_level: 0, archived: false });
    const issues = lines(body('./tree/project/issues.ndjson'));
    expect(issues.map((i) => [i.iid, i.title])).toEqual([[1, 'first'], [2, 'second']]);
    const first = issues[0] as Record<string, any>;
    expect(first).toMatchObject({ author_id: owner.id, state: 'opened', description: 'd', milestone: { title: 'v1', iid: 1 }, issue_assignees: [{ user_id: owner.id }] });
    expect(first.label_links).toEqual([expect.objectContaining({ target_type: 'Issue', label: expect.objectContaining({ title: 'bug', color: '#ff0000', type: 'ProjectLabel' }) })]);
    expect(first.notes.filter((n: any) => !n.system)).toEqual([expect.objectContaining({ note: 'a comment', author_id: member.id, noteable_type: 'Issue', author: { name: member.name } })]);
    expect(first.award_emoji).toEqual([expect.objectContaining({ name: 'thumbsup', user_id: member.id, awardable_type: 'Issue' })]);
    expect(lines(body('./tree/project/labels.ndjson')).map((l) => l.title)).toEqual(['bug']);
    expect(lines(body('./tree/project/milestones.ndjson')).map((m) => m.title)).toEqual(['v1']);
    const members = lines(body('./tree/project/project_members.ndjson'));
    expect(members.map((m) => [m.user_id, m.access_level])).toEqual(expect.arrayContaining([[member.id, 30]]));
    const row = await fleet.transfer.deps.db('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
    expect(row.counts).toMatchObject({ issues: 2, labels: 1, milestones: 1, project: 1, award_emoji: 1 });
  });

  it('answers 429 past the download limit', async () => {
    const res = await download(owner);
    expect(res.status).toBe(429);
  });

  it('answers 404 The project export file is not available yet when the file is gone', async () => {
    const maintainer = await fleet.makeUser();
    await fleet.addMember(project.id, maintainer, 40);
    await fleet.transfer.deps.db('project_exports').insert({ project_id: project.id, user_id: maintainer.id, job_status: 'finished', archive_key: 'exports/missing.tar.gz', archive_name: 'x.tar.gz' });
    const res = await fleet.transfer.as({ user: maintainer, project: await fleet.scope(project.id, maintainer) }).get(`/api/v4/projects/${project.id}/export/download`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'The project export file is not available yet' });
  });

  it('answers 403 to a developer', async () => {
    const res = await fleet.transfer.as({ user: member, project: await fleet.scope(project.id, member) }).get(`/api/v4/projects/${project.id}/export/download`);
    expect(res.status).toBe(403);
  });
});
