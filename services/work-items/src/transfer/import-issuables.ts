import type { Knex } from 'knex';
import { trackInternalId } from '../issues/issue-store';
import { add, awards, type Counts, date, labelId, milestoneId, type UserMapper } from './import-lines';

type Row = Record<string, any>;

const MR_STATES = new Set(['opened', 'closed', 'merged', 'locked']);

async function notes(trx: Knex.Transaction, type: string, id: number, projectId: number, list: Row[] | undefined, users: UserMapper, counts: Counts): Promise<number> {
  let userNotes = 0;
  for (const n of list ?? []) {
    const [note] = await trx('notes').insert({
      noteable_type: type, noteable_id: id, project_id: projectId, author_id: users(n.author_id), body: String(n.note ?? ''),
      system: Boolean(n.system), internal: Boolean(n.internal ?? n.confidential), created_at: date(n.created_at) ?? trx.fn.now(), updated_at: date(n.updated_at) ?? trx.fn.now(),
    }).returning('id');
    if (!n.system) userNotes += 1;
    add(counts, 'notes');
    await awards(trx, 'Note', note.id, n.award_emoji, users, counts);
  }
  return userNotes;
}

/**
 * Imports one `merge_requests.ndjson` line (notes, emoji, label links, milestone, assignees); the
 * source project becomes the new project. A merge request whose iid exists is skipped whole.
 */
export async function importMergeRequest(trx: Knex.Transaction, projectId: number, line: Row, users: UserMapper, counts: Counts): Promise<void> {
  const milestone = line.milestone?.title ? await milestoneId(trx, projectId, line.milestone, counts) : null;
  const state = MR_STATES.has(line.state) ? line.state : 'opened';
  const [mr] = await trx('merge_requests').insert({
    project_id: projectId, iid: Number(line.iid), title: String(line.title), description: line.description ?? null, state, author_id: users(line.author_id),
    source_branch: String(line.source_branch ?? 'source'), target_branch: String(line.target_branch ?? 'main'), source_project_id: projectId,
    milestone_id: milestone, draft: Boolean(line.draft), squash: Boolean(line.squash), discussion_locked: line.discussion_locked ?? null,
    sha: line.diff_head_sha ?? null, merge_commit_sha: line.merge_commit_sha ?? null, merged_by_id: state === 'merged' && line.merge_user_id ? users(line.merge_user_id) : null,
    time_estimate: Number(line.time_estimate ?? 0) || 0, created_at: date(line.created_at) ?? trx.fn.now(), updated_at: date(line.updated_at) ?? trx.fn.now(),
  }).onConflict(['project_id', 'iid']).ignore().returning('id');
  if (!mr) return;
  add(counts, 'merge_requests');
  await trackInternalId(trx, 'project', projectId, 'merge_requests', Number(line.iid));
  const userNotes = await notes(trx, 'MergeRequest', mr.id, projectId, line.notes, users, counts);
  await awards(trx, 'MergeRequest', mr.id, line.award_emoji, users, counts);
  for (const link of (line.label_links ?? []) as Row[]) {
    if (link.label?.title) await trx('merge_request_labels').insert({ merge_request_id: mr.id, label_id: await labelId(trx, projectId, link.label, counts) }).onConflict(['merge_request_id', 'label_id']).ignore();
  }
  for (const a of (line.merge_request_assignees ?? []) as Row[]) await trx('merge_request_assignees').insert({ merge_request_id: mr.id, user_id: users(a.user_id) }).onConflict(['merge_request_id', 'user_id']).ignore();
  await trx('merge_requests').where({ id: mr.id }).update({ user_notes_count: userNotes });
}

/**
 * Imports one `snippets.ndjson` line (notes, emoji). Snippets have no iid: one with the same title,
 * author and creation time is taken as already imported. A transaction lock on the project and title
 * makes a concurrent delivery of the same line wait for this one and then find its snippet.
 */
export async function importSnippet(trx: Knex.Transaction, projectId: number, line: Row, users: UserMapper, counts: Counts): Promise<void> {
  const author = users(line.author_id);
  const createdAt = date(line.created_at);
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`snippet-import:${projectId}:${String(line.title)}`]);
  if (createdAt && (await trx('snippets').where({ project_id: projectId, title: String(line.title), author_id: author, created_at: createdAt }).first('id'))) return;
  const visibility = [0, 10, 20].includes(Number(line.visibility_level)) ? Number(line.visibility_level) : 0;
  const [snippet] = await trx('snippets').insert({
    project_id: projectId, author_id: author, title: String(line.title), description: line.description ?? null, file_name: line.file_name ?? null,
    content: String(line.content ?? ''), visibility_level: visibility, created_at: createdAt ?? trx.fn.now(), updated_at: date(line.updated_at) ?? trx.fn.now(),
  }).returning('id');
  if (line.file_name) await trx('snippet_files').insert({ snippet_id: snippet.id, path: String(line.file_name), content: String(line.content ?? ''), position: 0 });
  add(counts, 'snippets');
  await notes(trx, 'Snippet', snippet.id, projectId, line.notes, users, counts);
  await awards(trx, 'Snippet', snippet.id, line.award_emoji, users, counts);
}
