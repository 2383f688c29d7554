import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startService, type TestService } from '@anvil/testing';
import { workItemsService } from '../src';
import { BATCH_LINES, importRelations } from '../src/transfer/import-consumer';

let svc: TestService;
let storageDir: string;
let projectId = 70_000;

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'anvil-wi-import-'));
  svc = await startService(workItemsService, { env: { STORAGE_DIR: storageDir } });
});
afterAll(async () => {
  await svc?.stop();
  rmSync(storageDir, { recursive: true, force: true });
});

async function importIssues(lines: unknown[], userMap: Record<string, number> = {}) {
  const project = ++projectId;
  const prefix = `imports/batch-${project}/`;
  await svc.deps.storage.put(`${prefix}tree/project/issues.ndjson`, Readable.from([lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n']));
  const report = await importRelations(svc.deps, { import_id: project, project_id: project, user_id: 42, prefix, user_map: userMap });
  return { project, report };
}

const issue = (iid: number, extra: Record<string, unknown> = {}) => ({
  iid, title: `Issue ${iid}`, state: iid % 4 === 0 ? 'closed' : 'opened', author_id: 7, created_at: '2024-01-01T00:00:00Z',
  notes: [
    { note: `first on ${iid}`, author_id: 7, system: false, award_emoji: iid === 3 ? [{ name: 'clapper', user_id: 8 }] : [] },
    { note: `second on ${iid}`, author_id: 8, system: true },
  ],
  label_links: [{ label: { title: `label-${iid % 3}`, color: '#ff0000' } }],
  issue_assignees: [{ user_id: 8 }],
  timelogs: iid === 5 ? [{ time_spent: 600, user_id: 7 }, { time_spent: 60, user_id: 8 }] : [],
  award_emoji: iid === 6 ? [{ name: 'thumbsup', user_id: 7 }, { name: 'thumbsup', user_id: 8 }] : [],
  milestone: iid % 2 ? { title: 'odd', iid: 1 } : undefined,
  ...extra,
});

describe('work-items import of issues in batches', () => {
  it('imports more issues than a batch holds with everything nested, mapping users; a bad line fails alone with its line number', async () => {
    const total = BATCH_LINES + 50;
    const lines: unknown[] = [];
    for (let iid = 1; iid <= total; iid++) lines.push(issue(iid));
    lines.splice(119, 0, { title: 'no iid here', notes: [{ note: 'lost' }] });
    lines.splice(10, 0, 'not json');
    lines.push(issue(2, { title: 'a duplicate iid' }));
    const { project, report } = await importIssues(lines, { 7: 1007, 8: 1008 });
    const db = svc.deps.db;

    expect(report.failures.map((f) => [f.relation_name, f.line_number, f.exception_class])).toEqual([['issues', 10, 'SyntaxError'], ['issues', 120, expect.any(String)]]);
    expect(report.counts).toMatchObject({ issues: total, notes: total * 2, labels: 3, milestones: 1, award_emoji: 3, timelogs: 2 });
    const issues = await db('issues').where({ project_id: project }).orderBy('iid').select('id', 'iid', 'title', 'state', 'author_id', 'user_notes_count', 'total_time_spent', 'upvotes', 'milestone_id', 'label_ids', 'assignee_ids');
    expect(issues).toHaveLength(total);
    expect(issues[1]).toMatchObject({ iid: 2, title: 'Issue 2', author_id: 1007, user_notes_count: 1 });
    expect(issues.find((i) => i.iid === 5)).toMatchObject({ total_time_spent: 660 });
    expect(issues.find((i) => i.iid === 6)).toMatchObject({ upvotes: 2, milestone_id: null });
    expect(issues.find((i) => i.iid === 7)?.milestone_id).not.toBeNull();
    expect(issues.every((i) => i.assignee_ids.length === 1 && i.assignee_ids[0] === 1008 && i.label_ids.length === 1)).toBe(true);
    expect(issues.filter((i) => i.state === 'closed')).toHaveLength(Math.floor(total / 4));

    const notes = await db('notes').where({ project_id: project, noteable_type: 'Issue', noteable_id: issues[2].id }).orderBy('id').select('id', 'body', 'author_id', 'system');
    expect(notes).toEqual([
      { id: expect.any(Number), body: 'first on 3', author_id: 1007, system: false },
      { id: expect.any(Number), body: 'second on 3', author_id: 1008, system: true },
    ]);
    expect(await db('award_emoji').where({ awardable_type: 'Note', awardable_id: notes[0].id }).pluck('name')).toEqual(['clapper']);
    expect(Number((await db('internal_ids').where({ scope: 'project', scope_id: project, usage: 'issues' }).first())?.last_value)).toBe(total);

    // Importing the same file again adds nothing: the report still says what the project holds.
    const prefix = `imports/batch-${project}/`;
    const again = await importRelations(svc.deps, { import_id: project, project_id: project, user_id: 42, prefix, user_map: { 7: 1007, 8: 1008 } });
    expect(again.counts).toMatchObject({ issues: total, notes: total * 2, labels: 3, milestones: 1 });
    expect(Number((await db('notes').where({ project_id: project }).count({ n: '*' }).first())?.n)).toBe(total * 2);
  });
});
