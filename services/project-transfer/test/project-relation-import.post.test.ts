import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Actor } from '@anvil/auth';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');
const GROUP = readFileSync(path.join(FIXTURES, 'group.tar.gz'));
const fixtureIssues = readFileSync(path.join(FIXTURES, 'group/tree/project/issues.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { iid: number; title: string });

let fleet: TransferFleet;
let owner: Actor;
let developer: Actor;
let stranger: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet({ PROJECT_IMPORT_LIMIT: '0' });
  [owner, developer, stranger] = await Promise.all([fleet.makeUser(), fleet.makeUser(), fleet.makeUser()]);
});
afterAll(async () => fleet?.stop());

function post(user: Actor | null, fields: Record<string, string>, file: Buffer | null = GROUP, name = 'export.tar.gz') {
  let req = fleet.transfer.as({ user }).post('/api/v4/projects/import-relation');
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return file ? req.attach('file', file, name) : req;
}

async function trackers(projectId: number, user: Actor) {
  return fleet.transfer.as({ user, project: await fleet.scope(projectId, user) }).get(`/api/v4/projects/${projectId}/relation-imports`);
}

async function ended(projectId: number, id: number) {
  return eventually(async () => {
    const row = (await trackers(projectId, owner)).body.find((t: { id: number }) => t.id === id);
    return ['finished', 'failed'].includes(row?.status) && row;
  });
}

describe('POST /projects/import-relation', () => {
  it('imports the issues the project lacks and skips the iids it already has', async () => {
    const project = await fleet.makeProject(owner);
    const scope = await fleet.scope(project.id, owner);
    const mine = await fleet.workItems.as({ user: owner, project: scope }).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'kept as it is' });
    expect(mine.status).toBe(201);
    const res = await post(owner, { path: project.path_with_namespace, relation: 'issues' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'id', 'project_path', 'relation', 'status', 'updated_at']);
    expect(res.body).toMatchObject({ project_path: project.path_with_namespace, relation: 'issues', status: 'created' });
    expect(await ended(project.id, res.body.id)).toMatchObject({ status: 'finished' });
    const issues = await fleet.workItems.deps.db('issues').where({ project_id: project.id }).orderBy('iid').select('iid', 'title');
    const want = new Map<number, string>(fixtureIssues.map((i) => [i.iid, i.title]));
    want.set(mine.body.iid, 'kept as it is');
    expect(issues.map((i) => [i.iid, i.title])).toEqual([...want.entries()].sort((a, b) => a[0] - b[0]));

    const again = await post(owner, { path: project.path_with_namespace, relation: 'issues' });
    expect(await ended(project.id, again.body.id)).toMatchObject({ status: 'finished' });
    expect(Number((await fleet.workItems.deps.db('issues').where({ project_id: project.id }).count({ n: '*' }).first())?.n)).toBe(want.size);
    expect((await trackers(project.id, owner)).body.map((t: { id: number }) => t.id)).toEqual([res.body.id, again.body.id]);
  });

  it('fails a ci_pipelines tracker when IMPORT_PARTS leaves pipelines out (this fleet runs no pipelines service)', async () => {
    const project = await fleet.makeProject(owner);
    const res = await post(owner, { path: project.path_with_namespace, relation: 'ci_pipelines' });
    expect(res.status).toBe(201);
    expect(await ended(project.id, res.body.id)).toMatchObject({ relation: 'ci_pipelines', status: 'failed' });
  });

  it('answers 409 while an import of the project runs, until its tracker is stale', async () => {
    const project = await fleet.makeProject(owner);
    const db = fleet.transfer.deps.db;
    const [running] = await db('relation_imports').insert({ project_id: project.id, project_path: project.path_with_namespace, relation: 'milestones', status: 'started', user_id: owner.id }).returning('id');
    const busy = await post(owner, { path: project.path_with_namespace, relation: 'issues' });
    expect([busy.status, busy.body]).toEqual([409, { message: 'A relation import is already in progress for this project' }]);
    await db('relation_imports').where({ id: running.id }).update({ created_at: new Date(Date.now() - 25 * 3600_000) });
    expect((await post(owner, { path: project.path_with_namespace, relation: 'milestones' })).status).toBe(201);
  });

  it("answers GitLab's 404, 400, 403, 422 and 401 in GitLab's order", async () => {
    const project = await fleet.makeProject(owner);
    await fleet.addMember(project.id, developer, 30);
    const hidden = await fleet.makeProject(stranger, { visibility: 'private' });
    const cases: [Actor | null, Record<string, string>, Buffer | null, string, number, unknown][] = [
      [owner, { path: 'nobody/nothing', relation: 'issues' }, GROUP, 'a.tar.gz', 404, { message: 'Project not found' }],
      [owner, { path: hidden.path_with_namespace, relation: 'issues' }, GROUP, 'a.tar.gz', 404, { message: 'Project not found' }],
      [owner, { path: project.path_with_namespace, relation: 'labels' }, GROUP, 'a.tar.gz', 400, { message: 'Imported relation must be one of issues, merge_requests, milestones, or ci_pipelines' }],
      [developer, { path: project.path_with_namespace, relation: 'issues' }, GROUP, 'a.tar.gz', 403, { message: 'You are not authorized to perform this action' }],
      [owner, { path: project.path_with_namespace, relation: 'issues' }, Buffer.from('x'), 'a.txt', 422, { message: { error: 'You need to upload a GitLab project export archive (ending in .gz).' } }],
      [owner, { path: project.path_with_namespace, relation: 'issues' }, null, '', 400, { error: 'file is missing' }],
      [owner, { relation: 'issues' }, GROUP, 'a.tar.gz', 400, { error: 'path is missing' }],
    ];
    for (const [user, fields, file, name, status, body] of cases) {
      const res = await post(user, fields, file, name);
      expect([fields, res.status, res.body]).toEqual([fields, status, body]);
    }
    expect((await post(null, { path: project.path_with_namespace, relation: 'issues' })).status).toBe(401);
    expect(await fleet.transfer.deps.db('relation_imports').where({ project_id: project.id }).count({ n: '*' }).first()).toEqual({ n: '0' });
  });
});

describe('GET /projects/:id/relation-imports', () => {
  it('answers 403 to a developer and [] for a project without trackers', async () => {
    const project = await fleet.makeProject(owner);
    await fleet.addMember(project.id, developer, 30);
    const denied = await trackers(project.id, developer);
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden - Project' }]);
    const none = await trackers(project.id, owner);
    expect([none.status, none.body]).toEqual([200, []]);
  });
});
