/**
 * Writes GitLab's system notes on issues (`system: true`, author = the actor) for the changes
 * `SystemNoteService` records as notes: assignees, title, description, due date, time estimate,
 * time spent, confidentiality, discussion lock and cross-references ("mentioned in"). State,
 * label and milestone changes are resource events in GitLab, never notes, so none is written.
 * System notes neither count in `user_notes_count` nor touch the issue's `updated_at`.
 */
import type { Knex } from 'knex';
import type { Issue } from '../issues/issue-row';
import { emitNoteEvent, NoteEvents } from '../events/note-events';
import { updatedTasks } from '../issues/tasks';
import { usersByIds } from '../read-model/store';
import {
  assigneesChangedText, checklistItemText, confidentialityChangedText, DESCRIPTION_CHANGED, discussionLockText, dueDateChangedText, mentionedInText,
  timeEstimateChangedText, timeSpentChangedText, titleChangedText,
} from './system-note-text';
import { insertNote } from './note-store';

type Db = Knex | Knex.Transaction;

/** Inserts one system note on an issue and its `work-items.note.created` event; blank texts are skipped. */
export async function insertSystemNote(db: Db, issue: Pick<Issue, 'id' | 'projectId' | 'iid'>, actorId: number, body: string): Promise<void> {
  if (!body) return;
  const note = await insertNote(db, { noteableType: 'Issue', noteableId: issue.id, projectId: issue.projectId, authorId: actorId, body, system: true });
  await emitNoteEvent(db, NoteEvents.created, note, issue, actorId);
}

/** An issue before and after an edit, with its assignee ids at both times. */
export interface IssueChange {
  before: Issue;
  after: Issue;
  assigneesBefore: readonly number[];
  assigneesAfter: readonly number[];
}

/**
 * The notes of an edit, in `Issuable::CommonSystemNotesService` then `Issues::UpdateService`
 * order: title, description, discussion lock, due date, confidentiality, assignees. Time
 * tracking writes its own (`estimateChanged`, `timeSpent`).
 */
export async function writeIssueChangeNotes(db: Db, change: IssueChange, actorId: number): Promise<void> {
  const { before, after } = change;
  const texts: string[] = [];
  if (before.title !== after.title) texts.push(titleChangedText(before.title, after.title));
  if ((before.description ?? '') !== (after.description ?? '')) texts.push(...descriptionTexts(before.description, after.description));
  if (!!before.discussionLocked !== !!after.discussionLocked) texts.push(discussionLockText(!!after.discussionLocked));
  if (before.dueDate !== after.dueDate) texts.push(dueDateChangedText(after.dueDate, before.dueDate));
  if (before.confidential !== after.confidential) texts.push(confidentialityChangedText(after.confidential, typeWord(after)));
  texts.push(await assigneesText(db, change.assigneesBefore, change.assigneesAfter));
  for (const text of texts) await insertSystemNote(db, after, actorId, text);
  if ((before.description ?? '') !== (after.description ?? '')) await writeMentionNotes(db, after, after.description ?? '', actorId);
}

/** `handle_description_change_note`: one note per (un)checked task-list item, else `changed the description`. */
function descriptionTexts(before: string | null, after: string | null): string[] {
  const tasks = updatedTasks(before, after);
  return tasks.length ? tasks.map((t) => checklistItemText(t.text, t.completed)) : [DESCRIPTION_CHANGED];
}

function typeWord(issue: Issue): string {
  return issue.issueType === 'test_case' ? 'test case' : issue.issueType;
}

async function assigneesText(db: Db, before: readonly number[], after: readonly number[]): Promise<string> {
  if ([...before].sort().join() === [...after].sort().join()) return '';
  const users = await usersByIds(db, [...before, ...after]);
  const names = (ids: readonly number[]) => ids.map((id) => users.get(id)?.username ?? `${id}`);
  return assigneesChangedText(names(before), names(after));
}

/** `change_time_estimate`, after the estimate moved from `oldSeconds`. */
export async function writeEstimateNote(db: Db, issue: Issue, oldSeconds: number, actorId: number): Promise<void> {
  await insertSystemNote(db, issue, actorId, timeEstimateChangedText(oldSeconds, issue.timeEstimate));
}

/** `change_time_spent`: seconds logged (or a reset), on `spentOn` (YYYY-MM-DD, null = today). */
export async function writeTimeSpentNote(db: Db, issue: Issue, seconds: number | 'reset', spentOn: string | null, actorId: number, now = new Date()): Promise<void> {
  await insertSystemNote(db, issue, actorId, timeSpentChangedText(seconds, spentOn, now.toISOString().slice(0, 10)));
}

/** Issue iids `#<n>` a Markdown text mentions, outside fenced and inline code, in order, each once. */
export function mentionedIids(text: string): number[] {
  const prose = text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  const iids = [...prose.matchAll(/(?<![\w#&/])#(\d+)\b/g)].map((m) => Number(m[1]));
  return [...new Set(iids)];
}

/**
 * `cross_reference`: on each other issue of the same project that `text` mentions, `mentioned
 * in issue #<iid>` (the mentioning issue), unless that note already exists there.
 */
export async function writeMentionNotes(db: Db, from: Issue, text: string, actorId: number): Promise<void> {
  const iids = mentionedIids(text).filter((iid) => iid !== from.iid);
  if (!iids.length) return;
  const targets: { id: number; project_id: number; iid: number }[] = await db('issues').select('id', 'project_id', 'iid').where({ project_id: from.projectId }).whereIn('iid', iids);
  const body = mentionedInText('issue', `#${from.iid}`);
  for (const t of targets) {
    const exists = await db('notes').where({ noteable_type: 'Issue', noteable_id: t.id, system: true, body }).first();
    if (!exists) await insertSystemNote(db, { id: t.id, projectId: t.project_id, iid: t.iid }, actorId, body);
  }
}
