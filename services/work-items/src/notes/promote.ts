import type { Knex } from 'knex';
import type { ProjectContext } from '../access/project-context';
import { createEpic, Epic } from '../epics/epic-store';
import type { Issue } from '../issues/issue-row';
import { setIssueState } from '../issues/issue-service';
import { canAdminIssue } from '../issues/policy';
import { emitEpicCreated, emitNoteEvent, NoteEvents } from '../events/work-item-events';
import { insertNote } from './note-store';

/** `/promote` is available on an open, not yet promoted issue of a group project, to issue admins. */
export function canPromote(pc: ProjectContext, issue: Issue): boolean {
  return !!pc.groupId && canAdminIssue(pc) && issue.promotedToEpicId === null && issue.state === 'opened';
}

/**
 * Promotes an issue to an epic of its project's group (GitLab's `Epics::IssuePromoteService`):
 * the epic takes the issue's title and description; the issue is closed, remembers the epic
 * (`promoted_to_epic_id`), and gets a system note; each change announced in the transaction.
 */
export async function promoteIssue(trx: Knex.Transaction, pc: ProjectContext, issue: Issue, actorId: number): Promise<{ epic: Epic; issue: Issue }> {
  const epic = await createEpic(trx, { groupId: pc.groupId as number, title: issue.title, description: issue.description, authorId: actorId, confidential: false });
  await emitEpicCreated(trx, epic, actorId);
  const closed = await setIssueState(trx, issue, 'close', actorId, { promoted_to_epic_id: epic.id });
  const note = await insertNote(trx, { noteableType: 'Issue', noteableId: issue.id, projectId: issue.projectId, authorId: actorId, body: `promoted to epic &${epic.iid}`, system: true });
  await emitNoteEvent(trx, NoteEvents.created, note, issue.iid, actorId);
  return { epic, issue: closed };
}

/** The message GitLab reports for a promotion. */
export function promoteMessage(issue: Issue): string {
  return issue.confidential
    ? 'Promoted confidential issue to a non-confidential epic. Information in this epic is no longer confidential as epics are public to group members.'
    : 'Promoted issue to an epic.';
}
