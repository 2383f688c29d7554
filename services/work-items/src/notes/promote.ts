import type { Knex } from 'knex';
import type { ProjectContext } from '../access/project-context';
import { createEpic, Epic } from '../epics/epic-store';
import type { Issue } from '../issues/issue-row';
import { setIssueState } from '../issues/issue-service';
import { canAdminIssue } from '../issues/policy';
import { emitNoteEvent, NoteEvents } from '../events/note-events';
import { emitEpicCreated } from '../events/work-item-events';
import { insertNote, Note } from './note-store';

/** `/promote` is available on an open, not yet promoted issue of a group project, to issue admins. */
export function canPromote(pc: ProjectContext, issue: Issue): boolean {
  return !!pc.groupId && canAdminIssue(pc) && issue.promotedToEpicId === null && issue.state === 'opened';
}

/**
 * Promotes an issue to an epic of its project's group (GitLab's `Epics::IssuePromoteService`):
 * the epic takes the issue's title and description; the issue is closed, remembers the epic
 * (`promoted_to_epic_id`), and gets a system note (returned as `note`).
 */
export async function promoteIssue(trx: Knex.Transaction, pc: ProjectContext, issue: Issue, actorId: number): Promise<{ epic: Epic; issue: Issue; note: Note }> {
  const epic = await createEpic(trx, { groupId: pc.groupId as number, title: issue.title, description: issue.description, authorId: actorId, confidential: false });
  await emitEpicCreated(trx, epic, actorId);
  const closed = await setIssueState(trx, issue, 'close', actorId, { promoted_to_epic_id: epic.id });
  const note = await insertNote(trx, { noteableType: 'Issue', noteableId: issue.id, projectId: issue.projectId, authorId: actorId, body: `promoted to epic &${epic.iid}`, system: true });
  await emitNoteEvent(trx, NoteEvents.created, note, issue, actorId);
  return { epic, issue: closed, note };
}

