import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Actor } from '@anvil/auth';
import { importIdentityPart } from '@anvil/identity';
import { unpackArchive } from '../src/imports/safe-unpack';
import { lines } from './support/archive';
import { makeArchive, validEntries } from './support/hostile';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');
const VISIBILITY: Record<number, string> = { 0: 'private', 10: 'internal', 20: 'public' };

let fleet: TransferFleet;
let importer: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet();
  importer = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

function post(user: Actor) {
  return fleet.transfer.as({ user }).post('/api/v4/projects/import');
}

async function finished(projectId: number, user: Actor) {
  return eventually(async () => {
    const body = (await fleet.transfer.as({ user, project: await fleet.scope(projectId, user) }).get(`/api/v4/projects/${projectId}/import`)).body;
    return ['finished', 'failed'].includes(body.import_status) && body;
  });
}

/** The project as identity stores it, and its direct members as `[user_id, access_level]`. */
async function stored(projectId: number) {
  const db = fleet.identity.deps.db;
  const project = await db('projects').where({ id: projectId }).first();
  const members = (await db('members').where({ source_type: 'Project', source_id: projectId }).orderBy('user_id').select('user_id', 'access_level', 'expires_at', 'created_by_id')) as { user_id: number; access_level: number; expires_at: Date | null; created_by_id: number | null }[];
  return { project, members };
}

const member = (id: number, email: string, level: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ access_level: level, source_type: 'Project', user_id: id, notification_level: 3, created_by_id: null, expires_at: null, ...extra, user: { id, public_email: email, username: `exported${id}` } });

describe('POST /projects/import: members and project attributes', () => {
  it.each(['light', 'group'])('imports the %s fixture: project.json attributes applied, members as its (absent) project_members.ndjson says', async (fixture) => {
    const tree = JSON.parse(readFileSync(path.join(FIXTURES, fixture, 'tree/project.json'), 'utf8'));
    let members: unknown[] = [];
    try {
      members = lines(readFileSync(path.join(FIXTURES, fixture, 'tree/project/project_members.ndjson'), 'utf8'));
    } catch {
      members = [];
    }
    const res = await post(importer).field('path', `attrs-${fixture}`).attach('file', readFileSync(path.join(FIXTURES, `${fixture}.tar.gz`)), `${fixture}.tar.gz`).expect(201);
    const status = await finished(res.body.id, importer);
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] });
    expect(status.relation_counts).toMatchObject({ project: 1, project_members: members.length });
    const { project, members: direct } = await stored(res.body.id);
    expect(project).toMatchObject({ description: tree.description, visibility: VISIBILITY[tree.visibility_level], archived: tree.archived });
    expect(direct.map((m) => [m.user_id, m.access_level])).toEqual([[importer.id, 50]]);
    const answer = (await fleet.identity.as({ user: importer, project: await fleet.scope(res.body.id, importer) }).get(`/api/v4/projects/${res.body.id}`).expect(200)).body;
    expect(answer).toMatchObject({ description: tree.description, visibility: VISIBILITY[tree.visibility_level] });
  });

  it('adds members mapped by e-mail (levels capped at Maintainer, expired and unknown ones left out) and applies project.json and project_feature', async () => {
    const dev = await fleet.makeUser();
    const boss = await fleet.makeUser();
    const lapsed = await fleet.makeUser();
    const project = { description: 'from the archive', visibility_level: 20, archived: false, ci_config_path: 'ci/pipeline.yml', build_timeout: 7200, merge_requests_ff_only_enabled: true, public_builds: false, name: 'ignored', path: 'ignored' };
    const entries = validEntries().map((e) => (e.name === './tree/project.json' ? { ...e, body: JSON.stringify(project) } : e));
    entries.push({ name: './tree/project/project_feature.ndjson', body: JSON.stringify({ issues_access_level: 0, wiki_access_level: 10, builds_access_level: 20 }) });
    entries.push({ name: './tree/project/project_members.ndjson', body: [
      member(11, `${dev.username}@example.com`, 30, { expires_at: '2999-01-31', created_by_id: 12 }),
      member(12, `${boss.username.toUpperCase()}@EXAMPLE.COM`, 50),
      member(13, 'nobody-here@example.org', 40),
      member(14, `${lapsed.username}@example.com`, 20, { expires_at: '2001-01-01' }),
      'not json',
    ].join('\n') + '\n' });
    const res = await post(importer).field('path', 'with-members').attach('file', await makeArchive(entries), 'with-members.tar.gz').expect(201);
    const status = await finished(res.body.id, importer);
    expect(status.import_status).toBe('finished');
    expect(status.relation_counts).toMatchObject({ project: 1, project_members: 2 });
    expect(status.failed_relations).toEqual([expect.objectContaining({ relation_name: 'project_members', line_number: 4, exception_class: 'SyntaxError', source: 'identity#import' })]);

    const { project: row, members } = await stored(res.body.id);
    expect(members.map((m) => [m.user_id, m.access_level])).toEqual([[importer.id, 50], [dev.id, 30], [boss.id, 40]].sort((a, b) => a[0] - b[0]));
    const devRow = members.find((m) => m.user_id === dev.id);
    expect(devRow?.created_by_id).toBe(boss.id);
    expect(new Date(devRow?.expires_at as Date).getFullYear()).toBe(2999);
    expect(row).toMatchObject({ name: 'with-members', path: 'with-members', description: 'from the archive', visibility: 'public' });
    expect(row.settings).toMatchObject({ ci_config_path: 'ci/pipeline.yml', build_timeout: 7200, merge_method: 'ff', public_jobs: false, issues_access_level: 'disabled', wiki_access_level: 'private', builds_access_level: 'enabled' });

    // The members see the project as members do, through the API.
    const seen = (await fleet.identity.as({ user: dev, project: await fleet.scope(res.body.id, dev) }).get(`/api/v4/projects/${res.body.id}/members/all`).expect(200)).body as { id: number; access_level: number }[];
    expect(seen.map((m) => [m.id, m.access_level]).sort((a, b) => a[0] - b[0])).toEqual([[importer.id, 50], [dev.id, 30], [boss.id, 40]].sort((a, b) => a[0] - b[0]));
  });

  it('override_params win over project.json; the visibility is capped at the group namespace, and a group importer becomes a direct Maintainer', async () => {
    const owner = await fleet.makeUser();
    const group = (await fleet.identity.as({ user: owner }).post('/api/v4/groups').send({ name: 'Closed', path: `closed-${owner.id}`, visibility: 'private' }).expect(201)).body;
    const entries = validEntries().map((e) => (e.name === './tree/project.json' ? { ...e, body: JSON.stringify({ description: 'archive text', visibility_level: 20, ci_config_path: 'a.yml' }) } : e));
    const archive = await makeArchive(entries);
    const capped = await post(owner).field('path', 'capped').field('namespace', group.full_path).attach('file', archive, 'capped.tar.gz').expect(201);
    expect((await finished(capped.body.id, owner)).import_status).toBe('finished');
    const first = await stored(capped.body.id);
    expect(first.project).toMatchObject({ description: 'archive text', visibility: 'private' });
    expect(first.members.map((m) => [m.user_id, m.access_level])).toEqual([[owner.id, 40]]);

    const over = await post(owner).field('path', 'overridden').field('override_params[description]', 'mine').field('override_params[ci_config_path]', 'b.yml')
      .attach('file', archive, 'overridden.tar.gz').expect(201);
    expect((await finished(over.body.id, owner)).import_status).toBe('finished');
    const second = await stored(over.body.id);
    expect(second.project).toMatchObject({ description: 'mine', visibility: 'public' });
    expect(second.project.settings).toMatchObject({ ci_config_path: 'b.yml' });
  });

  it('adds nothing twice when identity sees the same unpacked import again', async () => {
    const dev = await fleet.makeUser();
    const target = await fleet.makeProject(importer);
    const entries = validEntries();
    entries.push({ name: './tree/project/project_members.ndjson', body: member(21, `${dev.username}@example.com`, 30) + '\n' });
    const prefix = `imports/identity-redelivery-${target.id}/`;
    const storage = fleet.identity.deps.storage;
    await unpackArchive(storage, Readable.from([await makeArchive(entries)]), prefix);
    const input = { projectId: target.id, importerId: importer.id, prefix };
    const db = fleet.identity.deps.db;
    const events = async () => Number((await db('outbox').where({ type: 'identity.membership.created' }).whereRaw("(data->>'source_id')::int = ?", [target.id]).count({ n: '*' }).first())?.n);
    expect((await importIdentityPart(db, storage, 'http://localhost', input))?.counts).toEqual({ project: 1, project_members: 1 });
    expect((await importIdentityPart(db, storage, 'http://localhost', input))?.counts).toEqual({ project: 1, project_members: 0 });
    expect((await stored(target.id)).members.map((m) => m.user_id).sort((a, b) => a - b)).toEqual([importer.id, dev.id].sort((a, b) => a - b));
    expect(await events()).toBe(2);
  });
});
