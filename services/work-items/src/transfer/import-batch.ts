import type { Knex } from 'knex';
import { trackInternalId } from '../issues/issue-store';
import { add, type Counts, date, importIssueRow, labelId, milestoneId, type UserMapper } from './import-lines';

type Row = Record<string, any>;

/** Most rows one multi-row INSERT carries (Postgres takes at most 65,535 bind parameters). */
const ROWS_PER_INSERT = 2000;

/** Inserts `rows` in multi-row statements; the ids of the rows inserted, in order (when `ids`). */
async function insertRows(trx: Knex.Transaction, table: string, rows: Row[], opts: { conflict?: string[]; ids?: boolean } = {}): Promise<Row[]> {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const q = trx(table).insert(rows.slice(i, i + ROWS_PER_INSERT));
    const guarded = opts.conflict ? q.onConflict(opts.conflict).ignore() : q;
    if (opts.ids) out.push(...((await guarded.returning('id')) as Row[]));
    else await guarded;
  }
  return out;
}

/**
 * Imports a batch of `issues.ndjson` lines as `importIssue` does one, in a few multi-row statements
 * whatever the batch holds: the issues (counters computed up front), then all their notes, emoji,
 * label links, assignees and time logs. Labels and milestones are resolved once per distinct title.
 * Lines whose iid the project (or an earlier line) already has are skipped whole. Throws when any
 * line fails, so the caller can retry the lines one by one.
 */
export async function importIssueBatch(trx: Knex.Transaction, projectId: number, lines: Row[], users: UserMapper, counts: Counts): Promise<void> {
  const milestones = new Map<string, number>();
  const labels = new Map<string, number>();
  for (const line of lines) {
    const m = line.milestone;
    if (m?.title && !milestones.has(String(m.title))) milestones.set(String(m.title), await milestoneId(trx, projectId, m, counts));
  }
  const seen = new Set<number>();
  const fresh = lines.filter((l) => {
    const iid = Number(l.iid);
    if (seen.has(iid)) return false;
    seen.add(iid);
    return true;
  });
  if (!fresh.length) return;
  const rows = fresh.map((line) => importIssueRow(trx, projectId, line, users, line.milestone?.title ? (milestones.get(String(line.milestone.title)) as number) : null));
  const inserted = (await trx('issues').insert(rows).onConflict(['project_id', 'iid']).ignore().returning(['id', 'iid'])) as { id: number; iid: number }[];
  if (!inserted.length) return;
  add(counts, 'issues', inserted.length);
  await trackInternalId(trx, 'project', projectId, 'issues', Math.max(...inserted.map((r) => Number(r.iid))));
  const byIid = new Map(fresh.map((l) => [Number(l.iid), l]));

  const notes: Row[] = [];
  const noteAwards: Row[][] = [];
  const awards: Row[] = [];
  const links: Row[] = [];
  const assignees: Row[] = [];
  const timelogs: Row[] = [];
  for (const { id, iid } of inserted) {
    const line = byIid.get(Number(iid)) as Row;
    for (const n of (line.notes ?? []) as Row[]) {
      notes.push({
        noteable_type: 'Issue', noteable_id: id, project_id: projectId, author_id: users(n.author_id), body: String(n.note ?? ''),
        system: Boolean(n.system), internal: Boolean(n.internal ?? n.confidential), created_at: date(n.created_at) ?? trx.fn.now(), updated_at: date(n.updated_at) ?? trx.fn.now(),
      });
      noteAwards.push((n.award_emoji ?? []) as Row[]);
    }
    for (const a of (line.award_emoji ?? []) as Row[]) awards.push({ name: String(a.name), user_id: users(a.user_id), awardable_type: 'Issue', awardable_id: id, created_at: date(a.created_at) ?? trx.fn.now(), updated_at: date(a.updated_at) ?? trx.fn.now() });
    for (const link of (line.label_links ?? []) as Row[]) {
      const title = link.label?.title;
      if (!title) continue;
      if (!labels.has(String(title))) labels.set(String(title), await labelId(trx, projectId, link.label, counts));
      links.push({ issue_id: id, label_id: labels.get(String(title)) });
    }
    for (const a of (line.issue_assignees ?? []) as Row[]) assignees.push({ issue_id: id, user_id: users(a.user_id) });
    for (const t of (line.timelogs ?? []) as Row[]) {
      timelogs.push({ issue_id: id, user_id: users(t.user_id), time_spent: Number(t.time_spent) || 0, summary: t.summary ?? null, spent_at: date(t.spent_at) ?? trx.fn.now(), created_at: date(t.created_at) ?? trx.fn.now() });
    }
  }
  const noteIds = await insertRows(trx, 'notes', notes, { ids: true });
  add(counts, 'notes', noteIds.length);
  noteAwards.forEach((list, i) => {
    for (const a of list) awards.push({ name: String(a.name), user_id: users(a.user_id), awardable_type: 'Note', awardable_id: noteIds[i].id, created_at: date(a.created_at) ?? trx.fn.now(), updated_at: date(a.updated_at) ?? trx.fn.now() });
  });
  add(counts, 'award_emoji', (await insertRows(trx, 'award_emoji', awards, { conflict: ['awardable_type', 'awardable_id', 'user_id', 'name'], ids: true })).length);
  await insertRows(trx, 'issue_labels', links, { conflict: ['issue_id', 'label_id'] });
  await insertRows(trx, 'issue_assignees', assignees, { conflict: ['issue_id', 'user_id'] });
  await insertRows(trx, 'timelogs', timelogs);
  add(counts, 'timelogs', timelogs.length);
}
