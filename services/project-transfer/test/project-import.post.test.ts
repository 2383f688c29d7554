import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Actor } from '@anvil/auth';
import { binary, lines } from './support/archive';
import { makeArchive, validEntries } from './support/hostile';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');

let fleet: TransferFleet;
let importer: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet();
  importer = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

function post(user: Actor | null) {
  return fleet.transfer.as({ user }).post('/api/v4/projects/import');
}

async function finished(projectId: number, user: Actor) {
  return eventually(async () => {
    const body = (await fleet.transfer.as({ user, project: await fleet.scope(projectId, user) }).get(`/api/v4/projects/${projectId}/import`)).body;
    return ['finished', 'failed'].includes(body.import_status) && body;
  });
}

/** What a fixture's ndjson files say the import must create. */
function expected(fixture: string) {
  const read = (f: string) => {
    try {
      return lines(readFileSync(path.join(FIXTURES, fixture, 'tree/project', f), 'utf8'));
    } catch {
      return [];
    }
  };
  const issues = read('issues.ndjson') as Record<string, any>[];
  const labels = new Set([...read('labels.ndjson').map((l) => l.title), ...issues.flatMap((i) => (i.label_links ?? []).map((l: any) => l.label.title))]);
  const milestones = new Set([...read('milestones.ndjson').map((m) => m.title), ...issues.filter((i) => i.milestone).map((i) => i.milestone.title)]);
  return {
    issues: issues.map((i) => [i.iid, i.title, i.state === 'closed' ? 'closed' : 'opened']).sort((a, b) => a[0] - b[0]),
    notes: issues.reduce((s, i) => s + (i.notes ?? []).length, 0),
    labels: [...labels].sort(),
    milestones: [...milestones].sort(),
  };
}

describe('POST /projects/import', () => {
  it.each(['light', 'group'])('imports the %s fixture: every count matches its ndjson files', async (fixture) => {
    const res = await post(importer).field('path', `imported-${fixture}`).field('override_params[description]', `from ${fixture}`)
      .attach('file', readFileSync(path.join(FIXTURES, `${fixture}.tar.gz`)), `${fixture}.tar.gz`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ path: `imported-${fixture}`, name: `imported-${fixture}`, description: `from ${fixture}`, import_status: 'scheduled', import_type: 'gitlab_project', failed_relations: [], import_error: null });
    const status = await finished(res.body.id, importer);
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] });

    const want = expected(fixture);
    const db = fleet.workItems.deps.db;
    const issues = await db('issues').where({ project_id: res.body.id }).orderBy('iid').select('id', 'iid', 'title', 'state', 'author_id', 'created_at');
    expect(issues.map((i) => [i.iid, i.title, i.state])).toEqual(want.issues);
    expect(issues.every((i) => i.author_id === importer.id)).toBe(true);
    expect(Number((await db('notes').whereIn('noteable_id', issues.map((i) => i.id)).where({ noteable_type: 'Issue' }).count({ n: '*' }).first())?.n)).toBe(want.notes);
    expect((await db('labels').where({ project_id: res.body.id }).orderBy('title').pluck('title')).sort()).toEqual(want.labels);
    expect((await db('milestones').where({ project_id: res.body.id }).pluck('title')).sort()).toEqual(want.milestones);
    expect(status.relation_counts).toMatchObject({ issues: want.issues.length, notes: want.notes, labels: want.labels.length, milestones: want.milestones.length });
    const source = lines(readFileSync(path.join(FIXTURES, fixture, 'tree/project/issues.ndjson'), 'utf8'))[0] as Record<string, string>;
    expect(new Date(issues[0].created_at).toISOString()).toBe(new Date(source.created_at).toISOString());
  });

  it('maps authors through project_members by e-mail, and everyone else to the importer', async () => {
    const member = await fleet.makeUser();
    const email = `${member.username}@example.com`;
    const entries = validEntries().map((e) => (e.name === './tree/project/issues.ndjson'
      ? { ...e, body: [
        JSON.stringify({ iid: 4, title: 'by a member', state: 'opened', author_id: 501, notes: [{ note: 'member note', author_id: 501, system: false }, { note: 'stranger note', author_id: 777, system: false }], issue_assignees: [{ user_id: 501 }] }),
        JSON.stringify({ iid: 9, title: 'by a stranger', state: 'closed', author_id: 777 }),
      ].join('\n') + '\n' }
      : e));
    entries.push({ name: './tree/project/project_members.ndjson', body: JSON.stringify({ access_level: 30, user_id: 501, user: { id: 501, public_email: email, username: 'elsewhere' } }) + '\n' });
    const res = await post(importer).field('path', 'mapped').attach('file', await makeArchive(entries), 'mapped.tar.gz').expect(201);
    expect(await finished(res.body.id, importer)).toMatchObject({ import_status: 'finished' });
    const db = fleet.workItems.deps.db;
    const issues = await db('issues').where({ project_id: res.body.id }).orderBy('iid').select('id', 'iid', 'author_id', 'state');
    expect(issues.map((i) => [i.iid, i.author_id, i.state])).toEqual([[4, member.id, 'opened'], [9, importer.id, 'closed']]);
    expect(await db('notes').where({ noteable_type: 'Issue', noteable_id: issues[0].id }).orderBy('id').select('body', 'author_id')).toEqual([
      { body: 'member note', author_id: member.id }, { body: 'stranger note', author_id: importer.id },
    ]);
    expect(await db('issue_assignees').where({ issue_id: issues[0].id }).pluck('user_id')).toEqual([member.id]);
    const next = await fleet.workItems.as({ user: importer, project: await fleet.scope(res.body.id, importer) }).post(`/api/v4/projects/${res.body.id}/issues`).send({ title: 'after import' }).expect(201);
    expect(next.body.iid).toBe(10);
  });

  it('round-trips merge requests and snippets: exported by work-items, imported into a new project', async () => {
    const source = await fleet.makeProject(importer);
    const wi = fleet.workItems.as({ user: importer, project: await fleet.scope(source.id, importer) });
    await wi.post(`/api/v4/projects/${source.id}/merge_requests`).send({ source_branch: 'feature', target_branch: 'main', title: 'Add a feature', description: 'closes nothing' }).expect(201);
    await wi.post(`/api/v4/projects/${source.id}/snippets`).send({ title: 'Snip', file_name: 'a.txt', content: 'hello', visibility: 'private' }).expect(201);
    const tr = fleet.transfer.as({ user: importer, project: await fleet.scope(source.id, importer) });
    await tr.post(`/api/v4/projects/${source.id}/export`).expect(202);
    await eventually(async () => (await tr.get(`/api/v4/projects/${source.id}/export`)).body.export_status === 'finished');
    const archive = (await fleet.transfer.as({ user: importer, project: await fleet.scope(source.id, importer) }).get(`/api/v4/projects/${source.id}/export/download`).buffer(true).parse(binary)).body as Buffer;
    const res = await post(importer).field('path', 'mr-copy').attach('file', archive, 'copy.tar.gz').expect(201);
    expect(await finished(res.body.id, importer)).toMatchObject({ import_status: 'finished', failed_relations: [], relation_counts: expect.objectContaining({ merge_requests: 1, snippets: 1 }) });
    const db = fleet.workItems.deps.db;
    expect(await db('merge_requests').where({ project_id: res.body.id }).select('iid', 'title', 'source_branch', 'target_branch', 'state', 'author_id', 'source_project_id')).toEqual([
      { iid: 1, title: 'Add a feature', source_branch: 'feature', target_branch: 'main', state: 'opened', author_id: importer.id, source_project_id: res.body.id },
    ]);
    expect(await db('snippets').where({ project_id: res.body.id }).select('title', 'file_name', 'content', 'visibility_level')).toEqual([{ title: 'Snip', file_name: 'a.txt', content: 'hello', visibility_level: 0 }]);
  });

  it('fails an import of a hostile archive with a readable import_error', async () => {
    const archive = await makeArchive([...validEntries(), { name: './tree/project/labels.ndjson', type: 'symlink', linkname: '/etc/passwd' }]);
    const res = await post(importer).field('path', 'hostile').attach('file', archive, 'hostile.tar.gz');
    expect(res.status).toBe(201);
    const status = await finished(res.body.id, importer);
    expect(status).toMatchObject({ import_status: 'failed', import_error: 'Archive contains links' });
  });

  it('answers 422 for a file not ending in .gz', async () => {
    const res = await post(importer).field('path', 'not-gz').attach('file', Buffer.from('x'), 'export.zip');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: { error: 'You need to upload a GitLab project export archive (ending in .gz).' } });
  });

  it('answers 400 when path or file is missing', async () => {
    const noPath = await post(importer).attach('file', Buffer.from('x'), 'a.tar.gz');
    expect(noPath.status).toBe(400);
    expect(noPath.body).toEqual({ error: 'path is missing' });
    const noFile = await post(importer).field('path', 'nofile');
    expect(noFile.status).toBe(400);
    expect(noFile.body).toEqual({ error: 'file is missing' });
  });

  it('answers 400 with the first error when the name and path are taken, and 404 for an unknown namespace', async () => {
    const other = await fleet.makeUser();
    await fleet.makeProject(other, { path: 'taken' });
    const taken = await post(other).field('path', 'taken').attach('file', readFileSync(path.join(FIXTURES, 'group.tar.gz')), 'group.tar.gz');
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Name has already been taken' });
    const ns = await post(other).field('path', 'x').field('namespace', 'no/such/group').attach('file', readFileSync(path.join(FIXTURES, 'group.tar.gz')), 'group.tar.gz');
    expect(ns.status).toBe(404);
    expect(ns.body).toEqual({ message: '404 Namespace Not Found' });
  });

  it('answers 401 to an anonymous caller', async () => {
    expect((await post(null).field('path', 'x')).status).toBe(401);
  });
});
