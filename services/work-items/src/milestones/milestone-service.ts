import type { Knex } from 'knex';
import { ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import { nextInternalId } from '../issues/issue-store';
import type { Owner } from '../access/owner-scope';
import { emitMilestoneEvent, MilestoneEvents } from '../events/work-item-events';
import { deleteMilestoneById, findOwnMilestone, insertMilestone, Milestone, updateMilestoneColumns } from './milestone-store';

/** Create/update attributes (dates `YYYY-MM-DD`; null clears). */
export interface MilestoneAttributes {
  title?: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
  stateEvent?: 'close' | 'activate';
}

function validDate(v: string | null | undefined): boolean {
  return v === undefined || v === null || v === '' || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)));
}

function validate(attrs: MilestoneAttributes, current?: Milestone): void {
  const errors: Record<string, string[]> = {};
  if (attrs.title !== undefined && !attrs.title.trim()) errors.title = ["can't be blank"];
  if (!validDate(attrs.dueDate)) errors.due_date = ['is invalid'];
  if (!validDate(attrs.startDate)) errors.start_date = ['is invalid'];
  const start = attrs.startDate !== undefined ? attrs.startDate : current?.startDate;
  const due = attrs.dueDate !== undefined ? attrs.dueDate : current?.dueDate;
  if (!errors.due_date && !errors.start_date && start && due && due < start) errors.due_date = ['must be greater than start date'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

function columns(attrs: MilestoneAttributes): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (attrs.title !== undefined) c.title = attrs.title;
  if (attrs.description !== undefined) c.description = attrs.description;
  if (attrs.dueDate !== undefined) c.due_date = attrs.dueDate || null;
  if (attrs.startDate !== undefined) c.start_date = attrs.startDate || null;
  if (attrs.stateEvent) c.state = attrs.stateEvent === 'close' ? 'closed' : 'active';
  return c;
}

const TAKEN = () => new ValidationError({ title: ['already being used for another group or project milestone.'] });

/** Creates a milestone with the owner's next iid and announces `work-items.milestone.created`; a duplicate title is a 400 model error. */
export async function createMilestone(db: Knex, owner: Owner, attrs: MilestoneAttributes, actorId: number | null): Promise<Milestone> {
  validate(attrs);
  try {
    return await db.transaction(async (trx) => {
      const scope = owner.projectId !== null ? ['project', owner.projectId] as const : ['group', owner.groupId as number] as const;
      const iid = await nextInternalId(trx, scope[0], scope[1], 'milestones');
      const id = await insertMilestone(trx, { ...columns(attrs), iid, project_id: owner.projectId, group_id: owner.groupId });
      const m = (await findOwnMilestone(trx, owner, id)) as Milestone;
      await emitMilestoneEvent(trx, MilestoneEvents.created, m, actorId);
      return m;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw TAKEN();
    throw e;
  }
}

/** Edits a milestone (title, description, dates, `state_event` close/activate) and announces `work-items.milestone.updated`. */
export async function updateMilestone(db: Knex, owner: Owner, m: Milestone, attrs: MilestoneAttributes, actorId: number | null): Promise<Milestone> {
  validate(attrs, m);
  try {
    return await db.transaction(async (trx) => {
      await updateMilestoneColumns(trx, m.id, columns(attrs));
      const updated = (await findOwnMilestone(trx, owner, m.id)) as Milestone;
      await emitMilestoneEvent(trx, MilestoneEvents.updated, updated, actorId);
      return updated;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw TAKEN();
    throw e;
  }
}

/** Deletes a milestone (its issues keep existing without one) and announces `work-items.milestone.deleted`. */
export async function deleteMilestone(db: Knex, m: Milestone, actorId: number | null): Promise<void> {
  await db.transaction(async (trx) => {
    await deleteMilestoneById(trx, m.id);
    await emitMilestoneEvent(trx, MilestoneEvents.deleted, m, actorId);
  });
}
