import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startService, type TestService } from '@anvil/testing';
import { workItemsService } from '../src';
import { importRelations } from '../src/transfer/import-consumer';
import { importOneRelation } from '../src/transfer/relation-import-consumer';

let svc: TestService;
let storageDir: string;
let projectId = 71_000;

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'anvil-wi-race-'));
  svc = await startService(workItemsService, { env: { STORAGE_DIR: storageDir } });
});
afterAll(async () => {
  await svc?.stop();
  rmSync(storageDir, { recursive: true, force: true });
});

const MILESTONES = 40;
const milestone = (iid: number) => ({ iid, title: `v${iid}.0`, description: `release ${iid}`, state: iid % 3 ? 'active' : 'closed', created_at: '2024-01-01T00:00:00Z' });
const label = (n: number) => ({ title: `label-${n}`, color: '#ff0000' });
/** Issues that embed the milestones and labels again (as GitLab's issues lines do), in the same order as the files. */
const issue = (iid: number) => ({ iid, title: `Issue ${iid}`, state: 'opened', author_id: 7, milestone: milestone(iid), label_links: [{ label: label(iid % 5) }] });

async function archive(files: Record<string, unknown[]>): Promise<{ project: number; prefix: string }> {
  const project = ++projectId;
  const prefix = `imports/race-${project}/`;
  for (const [name, lines] of Object.entries(files)) {
    await svc.deps.storage.put(`${prefix}tree/project/${name}.ndjson`, Readable.from([lines.map((l) => JSON.stringify(l)).join('\n') + '\n']));
  }
  return { project, prefix };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('work-items import: the same part delivered twice at once', () => {
  it('two concurrent deliveries of labels, milestones, issues, merge requests and snippets end with each record once and no failed line', async () => {
    // Several rounds: each pair of deliveries walks the same files side by side, so most lines meet the other's uncommitted row.
    for (let round = 0; round < 4; round++) {
      const { project, prefix } = await archive({
        labels: range(5).map((n) => label(n - 1)),
        milestones: range(MILESTONES).map(milestone),
        issues: range(MILESTONES).map(issue),
        merge_requests: range(10).map((iid) => ({ iid, title: `MR ${iid}`, state: 'opened', author_id: 7, source_branch: `b${iid}`, target_branch: 'main', milestone: milestone(iid), label_links: [{ label: label(iid % 5) }] })),
        snippets: range(10).map((n) => ({ title: `Snippet ${n}`, author_id: 7, created_at: '2024-01-01T00:00:00Z', file_name: 'a.txt', content: 'x', visibility_level: 0 })),
      });
      const delivery = () => importRelations(svc.deps, { import_id: project, project_id: project, user_id: 42, prefix, user_map: {} });
      const reports = await Promise.all([delivery(), delivery()]);

      for (const r of reports) expect(r.failures).toEqual([]);
      const db = svc.deps.db;
      const milestones = await db('milestones').where({ project_id: project }).orderBy('iid').select('iid', 'title', 'state');
      expect(milestones).toEqual(range(MILESTONES).map((iid) => ({ iid, title: `v${iid}.0`, state: iid % 3 ? 'active' : 'closed' })));
      expect(await db('labels').where({ project_id: project }).orderBy('title').pluck('title')).toEqual(range(5).map((n) => `label-${n - 1}`));
      const issues = await db('issues as i').join('milestones as m', 'm.id', 'i.milestone_id').where({ 'i.project_id': project }).orderBy('i.iid').select('i.iid', 'm.title');
      expect(issues).toEqual(range(MILESTONES).map((iid) => ({ iid, title: `v${iid}.0` })));
      expect(await db('merge_requests').where({ project_id: project }).orderBy('iid').pluck('title')).toEqual(range(10).map((iid) => `MR ${iid}`));
      expect(await db('snippets').where({ project_id: project }).orderBy('id').pluck('title')).toEqual(range(10).map((n) => `Snippet ${n}`));
      expect(reports[1].counts).toMatchObject({ milestones: MILESTONES, labels: 5, issues: MILESTONES, merge_requests: 10, snippets: 10 });
      expect(Number((await db('internal_ids').where({ scope: 'project', scope_id: project, usage: 'milestones' }).first())?.last_value)).toBe(MILESTONES);
    }
  });

  it('two concurrent relation imports of the same milestones file end with each milestone once and no failed line', async () => {
    for (let round = 0; round < 4; round++) {
      const { project, prefix } = await archive({ milestones: range(MILESTONES).map(milestone) });
      const delivery = (id: number) => importOneRelation(svc.deps, { relation_import_id: id, project_id: project, user_id: 42, prefix, user_map: {}, relation: 'milestones' });
      const reports = await Promise.all([delivery(1), delivery(2)]);

      for (const r of reports) expect(r.failures).toEqual([]);
      expect(await svc.deps.db('milestones').where({ project_id: project }).orderBy('iid').pluck('title')).toEqual(range(MILESTONES).map((iid) => `v${iid}.0`));
    }
  });

  it('a milestone whose iid another title holds gets the next free iid, once', async () => {
    const { project, prefix } = await archive({ milestones: [milestone(1), { ...milestone(1), title: 'same iid, other title' }, milestone(2)] });
    const delivery = () => importRelations(svc.deps, { import_id: project, project_id: project, user_id: 42, prefix, user_map: {} });
    const reports = await Promise.all([delivery(), delivery()]);
    for (const r of reports) expect(r.failures).toEqual([]);
    const rows = await svc.deps.db('milestones').where({ project_id: project }).orderBy('title').select('iid', 'title');
    expect(rows.map((r) => r.title)).toEqual(['same iid, other title', 'v1.0', 'v2.0']);
    expect(rows.find((r) => r.title === 'v1.0')?.iid).toBe(1);
    expect(new Set(rows.map((r) => r.iid)).size).toBe(3);
  });
});
