import type { Knex } from 'knex';
import { nextInternalId, trackInternalId } from '../issues/issue-store';

type Row = Record<string, any>;

/** Maps an exported user id to this instance's user: a matched member, else the importer (as GitLab does). */
export type UserMapper = (exportedId: unknown) => number;

/** Counts of what an import created, by relation. */
export type Counts = Record<string, number>;

const ISSUE_TYPES = new Set(['issue', 'incident', 'test_case', 'requirement', 'task', 'objective', 'key_result']);
/** A timestamp or date of an export line, or null. */
export const date = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
/** Adds to a count. */
export const add = (c: Counts, k: string, n = 1) => (c[k] = (c[k] ?? 0) + n);

/** The project label titled like `label`, created (GitLab imports group labels as project labels here) when missing. */
export async function labelId(trx: Knex.Transaction, projectId: number, label: Row, counts: Counts): Promise<number> {
  const inserted = await trx.raw(
    `INSERT INTO labels (title, color, description, project_id, priority, created_at, updated_at) VALUES (?, ?, ?, ?, ?, COALESCE(?::timestamptz, now()), COALESCE(?::timestamptz, now()))
     ON CONFLICT (project_id, title) WHERE project_id IS NOT NULL DO NOTHING RETURNING id`,
    [String(label.title), String(label.color ?? '#6699cc'), label.description ?? null, projectId, label.priorities?.[0]?.priority ?? label.priority ?? null, date(label.created_at), date(label.updated_at)],
  );
  if (inserted.rows.length) {
    add(counts, 'labels');
    return inserted.rows[0].id;
  }
  return (await trx('labels').where({ project_id: projectId, title: String(label.title) }).first('id')).id;
}

/** Attempts at inserting one milestone: each lost only to a concurrent insert of the same title or of another title at the iid tried. */
const MILESTONE_ATTEMPTS = 5;

/**
 * The project milestone titled like `m`, created with its iid (or the next free one when another
 * title holds it) when missing. Safe against a concurrent import of the same line (a re-driven part
 * beside a running one): the insert skips on any unique conflict, then the row that won under that
 * title is taken, or, when the iid was what conflicted, the next free iid is tried.
 */
export async function milestoneId(trx: Knex.Transaction, projectId: number, m: Row, counts: Counts): Promise<number> {
  const title = String(m.title);
  const wanted = Number(m.iid);
  let iid: number | null = Number.isSafeInteger(wanted) && wanted > 0 ? wanted : null;
  for (let attempt = 0; attempt < MILESTONE_ATTEMPTS; attempt++) {
    const existing = await trx('milestones').where({ project_id: projectId, title }).first('id');
    if (existing) return existing.id;
    iid ??= await nextInternalId(trx, 'project', projectId, 'milestones');
    const [row] = await trx('milestones').insert({
      iid, project_id: projectId, title, description: m.description ?? null, state: m.state === 'closed' ? 'closed' : 'active',
      due_date: date(m.due_date), start_date: date(m.start_date), created_at: date(m.created_at) ?? trx.fn.now(), updated_at: date(m.updated_at) ?? trx.fn.now(),
    }).onConflict().ignore().returning('id');
    if (row) {
      await trackInternalId(trx, 'project', projectId, 'milestones', iid);
      add(counts, 'milestones');
      return row.id;
    }
    iid = null;
  }
  throw new Error(`Milestone ${title} found no free iid`);
}

/** Imports the award emoji of one awardable. */
export async function awards(trx: Knex.Transaction, type: string, id: number, list: Row[] | undefined, users: UserMapper, counts: Counts): Promise<void> {
  for (const a of list ?? []) {
    const r = await trx('award_emoji').insert({ name: String(a.name), user_id: users(a.user_id), awardable_type: type, awardable_id: id, created_at: date(a.created_at) ?? trx.fn.now(), updated_at: date(a.updated_at) ?? trx.fn.now() }).onConflict(['awardable_type', 'awardable_id', 'user_id', 'name']).ignore().returning('id');
    if (r.length) add(counts, 'award_emoji');
  }
}

/** The `issues` row of one `issues.ndjson` line, with its note, time and vote counters. */
export function importIssueRow(trx: Knex.Transaction, projectId: number, line: Row, users: UserMapper, milestone: number | null): Row {
  const state = line.state === 'closed' ? 'closed' : 'opened';
  const votes = (name: string) => ((line.award_emoji ?? []) as Row[]).filter((a) => a.name === name).length;
  return {
    project_id: projectId, iid: Number(line.iid), title: String(line.title), description: line.description ?? null, state,
    author_id: users(line.author_id), closed_by_id: state === 'closed' && line.closed_by_id ? users(line.closed_by_id) : null, closed_at: state === 'closed' ? date(line.closed_at) : null,
    created_at: date(line.created_at) ?? trx.fn.now(), updated_at: date(line.updated_at) ?? trx.fn.now(), due_date: date(line.due_date),
    confidential: Boolean(line.confidential), discussion_locked: line.discussion_locked ?? null,
    issue_type: ISSUE_TYPES.has(line.issue_type) ? line.issue_type : 'issue', milestone_id: milestone, weight: line.weight ?? null,
    relative_position: Number.isSafeInteger(line.relative_position) && Math.abs(line.relative_position) < 2 ** 31 ? line.relative_position : null,
    time_estimate: Number(line.time_estimate ?? 0) || 0,
    user_notes_count: ((line.notes ?? []) as Row[]).filter((n) => !n.system).length,
    total_time_spent: ((line.timelogs ?? []) as Row[]).reduce((s, t) => s + (Number(t.time_spent) || 0), 0),
    upvotes: votes('thumbsup'), downvotes: votes('thumbsdown'),
  };
}

/**
 * Imports one `issues.ndjson` line into `projectId` with everything nested in it: notes (with their
 * emoji), emoji, label links, milestone, assignees, time logs. Iids, timestamps and mapped authors are
 * kept. An issue whose iid exists is skipped whole (a redelivery or a relation re-import).
 */
export async function importIssue(trx: Knex.Transaction, projectId: number, line: Row, users: UserMapper, counts: Counts): Promise<void> {
  const milestone = line.milestone?.title ? await milestoneId(trx, projectId, line.milestone, counts) : null;
  const [issue] = await trx('issues').insert(importIssueRow(trx, projectId, line, users, milestone)).onConflict(['project_id', 'iid']).ignore().returning('id');
  if (!issue) return;
  add(counts, 'issues');
  await trackInternalId(trx, 'project', projectId, 'issues', Number(line.iid));
  for (const n of (line.notes ?? []) as Row[]) {
    const [note] = await trx('notes').insert({
      noteable_type: 'Issue', noteable_id: issue.id, project_id: projectId, author_id: users(n.author_id), body: String(n.note ?? ''),
      system: Boolean(n.system), internal: Boolean(n.internal ?? n.confidential), created_at: date(n.created_at) ?? trx.fn.now(), updated_at: date(n.updated_at) ?? trx.fn.now(),
    }).returning('id');
    add(counts, 'notes');
    await awards(trx, 'Note', note.id, n.award_emoji, users, counts);
  }
  await awards(trx, 'Issue', issue.id, line.award_emoji, users, counts);
  for (const link of (line.label_links ?? []) as Row[]) {
    if (!link.label?.title) continue;
    await trx('issue_labels').insert({ issue_id: issue.id, label_id: await labelId(trx, projectId, link.label, counts) }).onConflict(['issue_id', 'label_id']).ignore();
  }
  for (const a of (line.issue_assignees ?? []) as Row[]) await trx('issue_assignees').insert({ issue_id: issue.id, user_id: users(a.user_id) }).onConflict(['issue_id', 'user_id']).ignore();
  for (const t of (line.timelogs ?? []) as Row[]) {
    await trx('timelogs').insert({ issue_id: issue.id, user_id: users(t.user_id), time_spent: Number(t.time_spent) || 0, summary: t.summary ?? null, spent_at: date(t.spent_at) ?? trx.fn.now(), created_at: date(t.created_at) ?? trx.fn.now() });
    add(counts, 'timelogs');
  }
}
