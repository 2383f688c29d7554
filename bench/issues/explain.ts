/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of the list queries the benchmark runs, against a seeded
 * work-items schema: `npx tsx bench/issues/explain.ts <schema> <user id> <group id> <project id>`;
 * `ONLY=<case prefix>` narrows it, `FULL=1` prints whole plans.
 */
import { createDb } from '@anvil/db';
import { IssueFinder, FinderParent } from '../../services/work-items/src/issues/finder/issue-finder';
import type { IssueFilters } from '../../services/work-items/src/issues/finder/filters';
import { NotesFinder } from '../../services/work-items/src/notes/notes-finder';

async function main(): Promise<void> {
  const [schema, uid, gid, pid] = process.argv.slice(2);
  const db = createDb({ url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', schema });
  const viewer = { user: { id: Number(uid), username: 'bencher', name: 'bencher', admin: false, state: 'active' }, admin: false };
  const cases: [string, FinderParent, IssueFilters][] = [
    ['project', { kind: 'project', projectId: Number(pid), level: 20 }, {}],
    ['project labels', { kind: 'project', projectId: Number(pid), level: 20 }, { state: 'opened', labels: ['label-3'] }],
    ['project assignee', { kind: 'project', projectId: Number(pid), level: 20 }, { state: 'opened', assigneeUsername: ['bench-u2'] }],
    ['project milestone', { kind: 'project', projectId: Number(pid), level: 20 }, { state: 'opened', milestone: 'm3' }],
    ['group', { kind: 'group', groupId: Number(gid) }, { nonArchived: true }],
    ['group labels', { kind: 'group', groupId: Number(gid) }, { nonArchived: true, state: 'opened', labels: ['label-3'] }],
    ['group assignee', { kind: 'group', groupId: Number(gid) }, { nonArchived: true, state: 'opened', assigneeUsername: ['bench-u2'] }],
    ['group not', { kind: 'group', groupId: Number(gid) }, { nonArchived: true, labels: ['bug'], not: { labels: ['label-1'] }, orderBy: 'updated_at' }],
    ['global', { kind: 'none' }, { scope: 'all', nonArchived: true }],
  ];
  const filtered: [string, IssueFilters][] = [
    ['labels', { state: 'opened', labels: ['label-3'] }],
    ['assignee', { state: 'opened', assigneeUsername: ['bench-u2'] }],
    ['milestone', { state: 'opened', milestone: 'm3' }],
    ['not', { labels: ['bug'], not: { labels: ['label-1'] }, orderBy: 'updated_at' }],
  ];
  cases.push(['project not', { kind: 'project', projectId: Number(pid), level: 20 }, filtered[3][1]]);
  cases.push(['group milestone', { kind: 'group', groupId: Number(gid) }, { nonArchived: true, ...filtered[2][1] }]);
  for (const [name, f] of filtered) cases.push([`global ${name}`, { kind: 'none' }, { scope: 'all', nonArchived: true, ...f }]);
  const only = process.env.ONLY;
  const explain = async (name: string, kind: string, sql: string) => {
    const r = await db.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`);
    const lines = r.rows.map((x: Record<string, string>) => x['QUERY PLAN']);
    console.log(`\n### ${name} — ${kind}\n${process.env.FULL ? lines.join('\n') : lines.filter((l: string) => /Scan on (issues|issue_filter_keys|notes)|Scan using|Execution|Planning|Limit|Heap Fetches|Sort/.test(l) && !/never executed|memberships|groups|group_links/.test(l)).slice(0, 14).join('\n')}`);
  };
  for (const [name, parent, f] of cases) {
    if (only && !name.startsWith(only)) continue;
    const finder = new IssueFinder(db, viewer, parent, { orderBy: 'created_at', sort: 'desc', ...f });
    await finder.resolveNames();
    const page = finder.execute().limit(21).toString();
    const count = db.queryBuilder().count({ n: '*' }).from(finder.countable().query.select(db.raw('1')).limit(10001).as('c')).toString();
    for (const [kind, sql] of [['page', page], ['count', count]]) await explain(name, kind, sql);
  }
  if (!only || only.startsWith('notes')) {
    const issue = await db('issues').where({ project_id: Number(pid), iid: 1 }).first('id');
    const notes = new NotesFinder(db, { type: 'Issue', id: issue.id }, { orderBy: 'created_at', sort: 'desc', activityFilter: 'all_notes' }).execute();
    const n = Number((await db('notes').where({ noteable_type: 'Issue', noteable_id: issue.id }).count({ n: '*' }).first())?.n);
    await explain('notes', 'first page', notes.clone().limit(21).toString());
    await explain('notes', 'last page', notes.clone().limit(21).offset(Math.max(0, Math.ceil(n / 20) - 1) * 20).toString());
    await explain('notes', 'count', db.queryBuilder().count({ n: '*' }).from(notes.clone().clearOrder().clearSelect().select(db.raw('1')).limit(10001).as('c')).toString());
  }
  await db.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
