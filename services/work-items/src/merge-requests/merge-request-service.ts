import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import { ForbiddenError, HttpError, MethodNotAllowedError, ValidationError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import { resolveAssignees } from '../issues/issue-attributes';
import type { Issue } from '../issues/issue-row';
import { setIssueState } from '../issues/issue-service';
import { findIssueByIid, nextInternalId } from '../issues/issue-store';
import { findOrCreateProjectLabels } from '../labels/label-service';
import { usableMilestone } from '../milestones/milestone-store';
import { emitMergeRequestEvent, MergeRequestEvents } from '../events/work-item-events';
import { projectByPath } from '../read-model/store';
import { closingReferences, IssueRef, issueReferences } from './issue-references';
import {
  insertMergeRequest, MergeRequest, MergeRequestRow, openDuplicate, openIssuesClosedBy, setAssignees, setIssueLinks, setLabels, updateMergeRequestColumns,
} from './merge-request-store';

/** What create and update accept. */
export interface MergeRequestAttributes {
  title?: string;
  description?: string | null;
  sourceBranch?: string;
  targetBranch?: string;
  assigneeIds?: number[];
  labels?: string[];
  milestoneId?: number | null;
  removeSourceBranch?: boolean;
  squash?: boolean;
  discussionLocked?: boolean;
  stateEvent?: 'close' | 'reopen';
}

function branchError(message: string): HttpError {
  return new HttpError(422, { message: [message] });
}

/** Merge requests need Developer (push) access. */
function assertDeveloper(pc: ProjectContext): void {
  if (!pc.viewer.user || pc.level < AccessLevel.DEVELOPER) throw new ForbiddenError();
}

function draftTitle(title: string): boolean {
  return /^\s*(\[draft\]|\(draft\)|draft:|draft\s-|\[wip\]|wip:)/i.test(title);
}

/** The issues a merge request's text refers to: `closes` (closing pattern) win over `mentions`. */
async function resolveLinks(trx: Knex.Transaction, pc: ProjectContext, mr: Pick<MergeRequest, 'title' | 'description'>): Promise<{ issueId: number; type: 'closes' | 'mentions' }[]> {
  const text = `${mr.title}\n${mr.description ?? ''}`;
  const closing = closingReferences(text, pc.base);
  const all = [...closing, ...issueReferences(text, pc.base)];
  const out = new Map<number, 'closes' | 'mentions'>();
  for (const ref of all) {
    const issue = await resolveRef(trx, pc, ref);
    if (!issue || out.has(issue.id)) continue;
    out.set(issue.id, closing.includes(ref) ? 'closes' : 'mentions');
  }
  return [...out].map(([issueId, type]) => ({ issueId, type }));
}

async function resolveRef(trx: Knex.Transaction, pc: ProjectContext, ref: IssueRef): Promise<Issue | undefined> {
  const projectId = ref.path === null || ref.path.toLowerCase() === pc.pathWithNamespace.toLowerCase() ? pc.id : (await projectByPath(trx, ref.path))?.id;
  return projectId ? findIssueByIid(trx, projectId, ref.iid) : undefined;
}

async function applyAssociations(trx: Knex.Transaction, pc: ProjectContext, mrId: number, attrs: MergeRequestAttributes): Promise<void> {
  if (attrs.assigneeIds) await setAssignees(trx, mrId, await resolveAssignees(trx, attrs.assigneeIds));
  if (attrs.labels) await setLabels(trx, mrId, (await findOrCreateProjectLabels(trx, pc.id, pc.traversalIds, attrs.labels, pc.viewer.user?.id ?? null)).map((l) => l.id));
}

function columns(attrs: MergeRequestAttributes): Partial<MergeRequestRow> {
  const c: Partial<MergeRequestRow> = {};
  if (attrs.title !== undefined) Object.assign(c, { title: attrs.title, draft: draftTitle(attrs.title) });
  if (attrs.description !== undefined) c.description = attrs.description;
  if (attrs.targetBranch !== undefined) c.target_branch = attrs.targetBranch;
  if (attrs.removeSourceBranch !== undefined) c.remove_source_branch = attrs.removeSourceBranch;
  if (attrs.squash !== undefined) c.squash = attrs.squash;
  if (attrs.discussionLocked !== undefined) c.discussion_locked = attrs.discussionLocked;
  return c;
}

/**
 * Opens a merge request (Developer+): branches must differ and no other open merge request may
 * join the same branches (GitLab's 422s). Issues its text references are linked, the closing
 * pattern's ones as `closes`. Announces `work-items.merge_request.created`.
 */
export async function createMergeRequest(db: Knex, pc: ProjectContext, attrs: MergeRequestAttributes & { title: string; sourceBranch: string; targetBranch: string }): Promise<MergeRequest> {
  assertDeveloper(pc);
  if (!attrs.title.trim()) throw new ValidationError({ title: ["can't be blank"] });
  if (attrs.sourceBranch === attrs.targetBranch) throw branchError("You can't use same project/branch for source and target");
  return db.transaction(async (trx) => {
    const dup = await openDuplicate(trx, pc.id, attrs.sourceBranch, attrs.targetBranch);
    if (dup) throw branchError(`Another open merge request already exists for this source branch: !${dup.iid}`);
    const iid = await nextInternalId(trx, 'project', pc.id, 'merge_requests');
    const milestone = attrs.milestoneId ? (await usableMilestone(trx, pc.id, pc.traversalIds, attrs.milestoneId))?.id ?? null : null;
    const sha = createHash('sha1').update(`${pc.id}:${attrs.sourceBranch}:${iid}`).digest('hex');
    const mr = await insertMergeRequest(trx, {
      ...columns(attrs), project_id: pc.id, iid, source_branch: attrs.sourceBranch, source_project_id: pc.id,
      author_id: (pc.viewer.user as { id: number }).id, milestone_id: milestone, sha,
    });
    await applyAssociations(trx, pc, mr.id, attrs);
    await setIssueLinks(trx, mr.id, await resolveLinks(trx, pc, mr));
    await emitMergeRequestEvent(trx, MergeRequestEvents.created, mr, mr.authorId);
    return mr;
  });
}

/**
 * Edits a merge request (Developer+ or its author); relinks issues when the text changed. Announces
 * `closed`/`reopened` on a state change and `updated` when anything else was given.
 */
export async function updateMergeRequest(db: Knex, pc: ProjectContext, mr: MergeRequest, attrs: MergeRequestAttributes): Promise<MergeRequest> {
  const uid = pc.viewer.user?.id;
  if (!uid || (pc.level < AccessLevel.DEVELOPER && mr.authorId !== uid)) throw new ForbiddenError();
  return db.transaction(async (trx) => {
    const c = columns(attrs);
    if (attrs.milestoneId !== undefined) c.milestone_id = attrs.milestoneId ? (await usableMilestone(trx, pc.id, pc.traversalIds, attrs.milestoneId))?.id ?? null : null;
    if (attrs.stateEvent === 'close' && mr.state === 'opened') Object.assign(c, { state: 'closed', closed_at: new Date(), closed_by_id: uid });
    if (attrs.stateEvent === 'reopen' && mr.state === 'closed') Object.assign(c, { state: 'opened', closed_at: null, closed_by_id: null });
    const updated = await updateMergeRequestColumns(trx, mr.id, c);
    await applyAssociations(trx, pc, updated.id, attrs);
    if (attrs.title !== undefined || attrs.description !== undefined) await setIssueLinks(trx, updated.id, await resolveLinks(trx, pc, updated));
    if (c.state) await emitMergeRequestEvent(trx, c.state === 'closed' ? MergeRequestEvents.closed : MergeRequestEvents.reopened, updated, uid);
    if (Object.keys(c).some((k) => k !== 'state' && k !== 'closed_at' && k !== 'closed_by_id') || attrs.assigneeIds || attrs.labels) {
      await emitMergeRequestEvent(trx, MergeRequestEvents.updated, updated, uid);
    }
    return updated;
  });
}

/**
 * Merges an open merge request (Developer+; anything else is 405) and closes the issues of
 * this project it closes, on behalf of the merger. Announces `work-items.merge_request.merged`.
 */
export async function mergeMergeRequest(db: Knex, pc: ProjectContext, mr: MergeRequest): Promise<MergeRequest> {
  assertDeveloper(pc);
  if (mr.state !== 'opened') throw new MethodNotAllowedError();
  const uid = (pc.viewer.user as { id: number }).id;
  return db.transaction(async (trx) => {
    const mergeSha = createHash('sha1').update(`merge:${mr.id}`).digest('hex');
    const merged = await updateMergeRequestColumns(trx, mr.id, { state: 'merged', merged_at: new Date(), merged_by_id: uid, merge_commit_sha: mergeSha });
    for (const issue of await openIssuesClosedBy(trx, mr.id, pc.id)) await setIssueState(trx, issue, 'close', uid);
    await emitMergeRequestEvent(trx, MergeRequestEvents.merged, merged, uid);
    return merged;
  });
}
