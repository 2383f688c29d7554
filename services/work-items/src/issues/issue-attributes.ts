import type { Knex } from 'knex';
import { NotFoundError, ValidationError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import { epicByIid, epicInGroups, iterationInGroups } from '../epics/epic-store';
import { findOrCreateProjectLabels } from '../labels/label-service';
import { labelsByIds } from '../labels/label-store';
import { usableMilestone, usableMilestoneByTitle } from '../milestones/milestone-store';
import { existingUserIds } from '../read-model/store';
import type { IssueRow, IssueType } from './issue-row';

type Db = Knex | Knex.Transaction;

/** What create and update accept, already validated at the route (snake_case params mapped once). */
export interface IssueAttributes {
  title?: string;
  description?: string | null;
  assigneeIds?: number[];
  milestoneId?: number | null;
  milestoneTitle?: string;
  labels?: string[];
  addLabels?: string[];
  removeLabels?: string[];
  dueDate?: string | null;
  confidential?: boolean;
  discussionLocked?: boolean;
  issueType?: IssueType;
  weight?: number | null;
  epicId?: number | null;
  epicIid?: number;
  iterationId?: number | null;
  healthStatus?: string | null;
  createdAt?: Date;
  updatedAt?: Date;
  iid?: number;
  stateEvent?: 'close' | 'reopen';
}

/** Attributes only issue admins (Planner/Reporter+) may set; others' values are dropped, as GitLab does. */
const METADATA: (keyof IssueAttributes)[] = [
  'assigneeIds', 'milestoneId', 'milestoneTitle', 'labels', 'addLabels', 'removeLabels', 'dueDate', 'discussionLocked',
  'weight', 'epicId', 'epicIid', 'iterationId', 'healthStatus',
];

/** Drops the metadata attributes the caller may not set. */
export function filterMetadata(attrs: IssueAttributes, isAdmin: boolean): IssueAttributes {
  if (isAdmin) return attrs;
  const out = { ...attrs };
  for (const k of METADATA) delete out[k];
  return out;
}

/** Model validations, as `{"message":{field:[...]}}` 400s. */
export function validateAttributes(attrs: IssueAttributes, creating: boolean): void {
  const errors: Record<string, string[]> = {};
  if ((creating || attrs.title !== undefined) && !attrs.title?.trim()) errors.title = ["can't be blank"];
  else if (attrs.title && attrs.title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  if (attrs.description && attrs.description.length > 1_048_576) errors.description = ['is too long (maximum is 1048576 characters)'];
  if (attrs.weight !== undefined && attrs.weight !== null && attrs.weight < 0) errors.weight = ['must be greater than or equal to 0'];
  if (attrs.dueDate && (!/^\d{4}-\d{2}-\d{2}$/.test(attrs.dueDate) || Number.isNaN(Date.parse(attrs.dueDate)))) errors.due_date = ['is invalid'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** The issue columns that plain attributes map to (no lookups). */
export function plainColumns(attrs: IssueAttributes): Partial<IssueRow> {
  const c: Partial<IssueRow> = {};
  if (attrs.title !== undefined) c.title = attrs.title;
  if (attrs.description !== undefined) c.description = attrs.description;
  if (attrs.dueDate !== undefined) c.due_date = attrs.dueDate || null;
  if (attrs.confidential !== undefined) c.confidential = attrs.confidential;
  if (attrs.discussionLocked !== undefined) c.discussion_locked = attrs.discussionLocked;
  if (attrs.issueType !== undefined) c.issue_type = attrs.issueType;
  if (attrs.weight !== undefined) c.weight = attrs.weight;
  if (attrs.healthStatus !== undefined) c.health_status = attrs.healthStatus;
  return c;
}

/** The milestone column: an id (0 clears) or a title, among the project's and its groups' milestones. */
export async function resolveMilestone(db: Db, pc: ProjectContext, attrs: IssueAttributes): Promise<number | null | undefined> {
  if (attrs.milestoneTitle !== undefined) {
    return (await usableMilestoneByTitle(db, pc.id, pc.traversalIds, attrs.milestoneTitle))?.id ?? null;
  }
  if (attrs.milestoneId === undefined) return undefined;
  if (!attrs.milestoneId) return null;
  return (await usableMilestone(db, pc.id, pc.traversalIds, attrs.milestoneId))?.id ?? null;
}

/** The epic column: `epic_id` (0 clears) within the project's groups, or `epic_iid` in its group. */
export async function resolveEpic(db: Db, pc: ProjectContext, attrs: IssueAttributes): Promise<number | null | undefined> {
  if (attrs.epicIid !== undefined) {
    const epic = pc.groupId ? await epicByIid(db, pc.groupId, attrs.epicIid) : undefined;
    if (!epic) throw new NotFoundError('Epic');
    return epic.id;
  }
  if (attrs.epicId === undefined) return undefined;
  if (!attrs.epicId) return null;
  const epic = await epicInGroups(db, pc.traversalIds, attrs.epicId);
  if (!epic) throw new NotFoundError('Epic');
  return epic.id;
}

/** The iteration column: an iteration of one of the project's groups (0 or unknown clears). */
export async function resolveIteration(db: Db, pc: ProjectContext, attrs: IssueAttributes): Promise<number | null | undefined> {
  if (attrs.iterationId === undefined) return undefined;
  if (!attrs.iterationId || !pc.traversalIds.length) return null;
  return (await iterationInGroups(db, pc.traversalIds, attrs.iterationId))?.id ?? null;
}

/** Assignees that exist (ids 0 and unknown users are dropped). */
export async function resolveAssignees(db: Db, ids: number[]): Promise<number[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  const existing = await existingUserIds(db, wanted);
  return wanted.filter((id) => existing.has(id));
}

/**
 * The label ids after `labels` (replace), `add_labels` and `remove_labels`; names not yet known
 * become project labels. Returns undefined when no label attribute was given.
 */
export async function resolveLabels(trx: Knex.Transaction, pc: ProjectContext, attrs: IssueAttributes, current: { id: number; title: string }[]): Promise<number[] | undefined> {
  if (attrs.labels === undefined && attrs.addLabels === undefined && attrs.removeLabels === undefined) return undefined;
  let ids = attrs.labels !== undefined
    ? (await findOrCreateProjectLabels(trx, pc.id, pc.traversalIds, attrs.labels, pc.viewer.user?.id ?? null)).map((l) => l.id)
    : current.map((l) => l.id);
  if (attrs.addLabels?.length) ids = ids.concat((await findOrCreateProjectLabels(trx, pc.id, pc.traversalIds, attrs.addLabels, pc.viewer.user?.id ?? null)).map((l) => l.id));
  if (attrs.removeLabels?.length) {
    const remove = new Set(attrs.removeLabels);
    const titles = new Map(current.map((l) => [l.id, l.title]));
    const added = attrs.labels !== undefined || attrs.addLabels ? new Map((await labelsByIds(trx, ids)).map((l) => [l.id, l.title])) : titles;
    ids = ids.filter((id) => !remove.has(added.get(id) ?? ''));
  }
  return [...new Set(ids)];
}
