import type { Knex } from 'knex';
import { ConflictError, ForbiddenError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { ProjectContext } from '../access/project-context';
import { emitIssueEvent, IssueEvents, issuePayload } from '../events/issue-events';
import {
  filterMetadata, IssueAttributes, plainColumns, resolveAssignees, resolveEpic, resolveIteration, resolveLabels, resolveMilestone, validateAttributes,
} from './issue-attributes';
import { camelKey } from '../db/rows';
import { labelsByIds } from '../labels/label-store';
import type { Issue, IssueRow } from './issue-row';
import {
  assigneeIds, deleteIssueRow, insertIssue, issueLabelIds, issueLabelTitles, nextInternalId, setAssignees, setIssueLabels, trackInternalId, updateIssueRow,
} from './issue-store';
import { assertWritable, canAdminIssue, canUpdateIssue, isOwner } from './policy';
import { writeIssueChangeNotes, writeMentionNotes } from '../notes/system-notes';

/** An issue's assignee ids and label titles as they now are: what its events carry beside the row. */
interface IssueLinks {
  assigneeIds: number[];
  labels: string[];
}

async function issueLinks(trx: Knex.Transaction, issueId: number): Promise<IssueLinks> {
  return { assigneeIds: await assigneeIds(trx, issueId), labels: await issueLabelTitles(trx, issueId) };
}

/** Announces `type` for `row`; `links` are read when the caller has not already. */
async function publish(trx: Knex.Transaction, type: (typeof IssueEvents)[keyof typeof IssueEvents], row: Issue, actorId: number | null, links?: IssueLinks, changes?: string[]): Promise<void> {
  const payload = issuePayload(row, { ...(links ?? await issueLinks(trx, row.id)), actorId, changes });
  await emitIssueEvent(trx, type, payload);
}

/**
 * Creates an issue in the project with the next iid (or the given one, Owner only), its
 * labels (creating unknown project labels), assignees and milestone, and announces
 * `work-items.issue.created`. Metadata from non-admins is dropped; a taken iid is 409.
 */
export async function createIssue(db: Knex, pc: ProjectContext, input: IssueAttributes): Promise<Issue> {
  assertWritable(pc);
  const actor = pc.viewer.user;
  if (!actor) throw new ForbiddenError();
  const attrs = filterMetadata(owned(pc, input), canAdminIssue(pc));
  validateAttributes(attrs, true);
  try {
    return await db.transaction(async (trx) => {
      const iid = attrs.iid ?? (await nextInternalId(trx, 'project', pc.id, 'issues'));
      if (attrs.iid !== undefined) await trackInternalId(trx, 'project', pc.id, 'issues', attrs.iid);
      const columns: Partial<IssueRow> = { ...plainColumns(attrs), project_id: pc.id, iid, author_id: actor.id };
      columns.milestone_id = (await resolveMilestone(trx, pc, attrs)) ?? null;
      columns.epic_id = (await resolveEpic(trx, pc, attrs)) ?? null;
      columns.iteration_id = (await resolveIteration(trx, pc, attrs)) ?? null;
      if (attrs.createdAt) Object.assign(columns, { created_at: attrs.createdAt, updated_at: attrs.createdAt });
      const row = await insertIssue(trx, columns);
      if (attrs.assigneeIds) await setAssignees(trx, row.id, await resolveAssignees(trx, attrs.assigneeIds));
      const labels = await resolveLabels(trx, pc, attrs, []);
      if (labels) await setIssueLabels(trx, row.id, labels);
      await writeMentionNotes(trx, row, row.description ?? '', actor.id);
      await publish(trx, IssueEvents.created, row, actor.id);
      return row;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'issues_project_iid_key')) throw new ConflictError('Duplicated issue');
    throw e;
  }
}

/** Owner-only create options (`iid`, `created_at`) are dropped for everyone else. */
function owned(pc: ProjectContext, attrs: IssueAttributes): IssueAttributes {
  if (isOwner(pc)) return attrs;
  const { iid: _iid, createdAt: _c, updatedAt: _u, ...rest } = attrs;
  return rest;
}

function stateColumns(issue: Issue, event: IssueAttributes['stateEvent'], actorId: number): Partial<IssueRow> {
  if (event === 'close' && issue.state === 'opened') return { state: 'closed', closed_at: new Date(), closed_by_id: actorId };
  if (event === 'reopen' && issue.state === 'closed') return { state: 'opened', closed_at: null, closed_by_id: null };
  return {};
}

function changedKeys(before: Issue, after: Partial<IssueRow>): string[] {
  return Object.keys(after).filter((k) => {
    const a = (before as unknown as Record<string, unknown>)[camelKey(k)];
    const b = (after as Record<string, unknown>)[k];
    return a instanceof Date || b instanceof Date ? String(a && new Date(a as Date).getTime()) !== String(b && new Date(b as Date).getTime()) : a !== b;
  });
}

/**
 * Applies an edit: plain fields, `state_event`, labels (`labels`/`add_labels`/`remove_labels`),
 * assignees, milestone and epic. Callers need `update_issue` (403 otherwise); metadata from
 * non-admins is dropped. Publishes `closed`/`reopened` on a state change and `updated` when
 * anything else changed; `updated_at` moves only when something changed.
 */
export async function updateIssue(db: Knex, pc: ProjectContext, issue: Issue, input: IssueAttributes): Promise<Issue> {
  assertWritable(pc);
  const actor = pc.viewer.user;
  return db.transaction(async (trx) => {
    const currentAssignees = await assigneeIds(trx, issue.id);
    if (!actor || !canUpdateIssue(pc, issue, currentAssignees)) throw new ForbiddenError();
    const attrs = filterMetadata(isOwner(pc) ? input : { ...input, updatedAt: undefined }, canAdminIssue(pc));
    validateAttributes(attrs, false);
    const columns: Partial<IssueRow> = plainColumns(attrs);
    const milestone = await resolveMilestone(trx, pc, attrs);
    if (milestone !== undefined) columns.milestone_id = milestone;
    const epic = await resolveEpic(trx, pc, attrs);
    if (epic !== undefined) columns.epic_id = epic;
    const iteration = await resolveIteration(trx, pc, attrs);
    if (iteration !== undefined) columns.iteration_id = iteration;
    const changes = changedKeys(issue, columns);
    if (await updateAssociations(trx, pc, issue.id, attrs, currentAssignees)) changes.push('labels_or_assignees');
    const state = stateColumns(issue, attrs.stateEvent, actor.id);
    if (!changes.length && !Object.keys(state).length) return issue;
    const row = await updateIssueRow(trx, issue.id, { ...columns, ...state, updated_at: attrs.updatedAt ?? new Date() });
    const links = await issueLinks(trx, issue.id);
    await writeIssueChangeNotes(trx, { before: issue, after: row, assigneesBefore: currentAssignees, assigneesAfter: links.assigneeIds }, actor.id);
    if (state.state === 'closed') await publish(trx, IssueEvents.closed, row, actor.id, links);
    if (state.state === 'opened') await publish(trx, IssueEvents.reopened, row, actor.id, links);
    if (changes.length) await publish(trx, IssueEvents.updated, row, actor.id, links, changes);
    return row;
  });
}

async function updateAssociations(trx: Knex.Transaction, pc: ProjectContext, issueId: number, attrs: IssueAttributes, current: number[]): Promise<boolean> {
  let changed = false;
  if (attrs.assigneeIds) {
    const next = await resolveAssignees(trx, attrs.assigneeIds);
    if (next.slice().sort().join() !== current.slice().sort().join()) {
      await setAssignees(trx, issueId, next);
      changed = true;
    }
  }
  const currentLabelIds = await issueLabelIds(trx, issueId);
  const currentLabels = await labelsByIds(trx, currentLabelIds);
  const labels = await resolveLabels(trx, pc, attrs, currentLabels);
  if (labels && labels.slice().sort().join() !== currentLabelIds.slice().sort().join()) {
    await setIssueLabels(trx, issueId, labels);
    changed = true;
  }
  return changed;
}

/** Closes (or reopens) an issue on behalf of `actorId` outside an edit (merge requests, promote). */
export async function setIssueState(trx: Knex.Transaction, issue: Issue, event: 'close' | 'reopen', actorId: number, extra: Partial<IssueRow> = {}): Promise<Issue> {
  const state = stateColumns(issue, event, actorId);
  if (!Object.keys(state).length && !Object.keys(extra).length) return issue;
  const row = await updateIssueRow(trx, issue.id, { ...state, ...extra, updated_at: new Date() });
  if (state.state) await publish(trx, state.state === 'closed' ? IssueEvents.closed : IssueEvents.reopened, row, actorId);
  return row;
}

/** Deletes an issue (Owner/admin, else 403) and announces `work-items.issue.deleted`. */
export async function deleteIssue(db: Knex, pc: ProjectContext, issue: Issue): Promise<void> {
  if (!isOwner(pc)) throw new ForbiddenError();
  await db.transaction(async (trx) => {
    const payload = issuePayload(issue, { ...(await issueLinks(trx, issue.id)), actorId: pc.viewer.user?.id ?? null });
    await deleteIssueRow(trx, issue);
    await emitIssueEvent(trx, IssueEvents.deleted, payload);
  });
}
