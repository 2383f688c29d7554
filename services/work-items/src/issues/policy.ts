import { AccessLevel } from '@anvil/auth';
import { ForbiddenError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import { ISSUE_ADMIN_LEVEL } from '../access/viewer';
import type { Issue } from './issue-row';

/** GitLab's `read_issue` on one issue: confidential ones only for author, assignees and Planner/Reporter+. */
export function canReadIssue(pc: ProjectContext, issue: Issue, assigneeIds: number[]): boolean {
  if (!issue.confidential || pc.viewer.admin || pc.level >= ISSUE_ADMIN_LEVEL) return true;
  const uid = pc.viewer.user?.id;
  return !!uid && (issue.authorId === uid || assigneeIds.includes(uid));
}

/** `admin_issue`: set metadata, track time, promote (Planner/Reporter and up). */
export function canAdminIssue(pc: ProjectContext): boolean {
  return !!pc.viewer.user && pc.level >= ISSUE_ADMIN_LEVEL;
}

/** `update_issue`: issue admins, the author and the assignees. */
export function canUpdateIssue(pc: ProjectContext, issue: Issue, assigneeIds: number[]): boolean {
  const uid = pc.viewer.user?.id;
  if (!uid) return false;
  return canAdminIssue(pc) || issue.authorId === uid || assigneeIds.includes(uid);
}

/** `destroy_issue` and the owner-only create options (`iid`, `created_at`): Owner or administrator. */
export function isOwner(pc: ProjectContext): boolean {
  return !!pc.viewer.user && pc.level >= AccessLevel.OWNER;
}

/** Archived projects are read-only: every write is 403. */
export function assertWritable(pc: ProjectContext): void {
  if (pc.archived) throw new ForbiddenError();
}
