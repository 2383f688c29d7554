import type { Knex } from 'knex';
import { ConflictError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import { emitLabelEvent, LabelEvents } from '../events/work-item-events';
import { deleteLabelById, ensureProjectLabel, insertLabel, Label, labelsAvailableToProject, LabelOwner, normalizeColor, updateLabelColumns } from './label-store';

/** Create/update attributes. */
export interface LabelAttributes {
  title?: string;
  color?: string;
  description?: string | null;
  priority?: number | null;
}

function validate(attrs: LabelAttributes): Record<string, unknown> {
  const errors: Record<string, string[]> = {};
  const c: Record<string, unknown> = {};
  if (attrs.title !== undefined) {
    if (!attrs.title.trim()) errors.title = ["can't be blank"];
    else if (attrs.title.includes(',')) errors.title = ['is invalid'];
    else if (attrs.title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
    c.title = attrs.title.trim();
  }
  if (attrs.color !== undefined) {
    const color = normalizeColor(attrs.color);
    if (!color) errors.color = ['must be a valid color code'];
    c.color = color;
  }
  if (attrs.description !== undefined) c.description = attrs.description;
  if (attrs.priority !== undefined) {
    if (attrs.priority !== null && attrs.priority < 0) errors.priority = ['must be greater than or equal to 0'];
    c.priority = attrs.priority;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return c;
}

function conflict(e: unknown): never {
  if (isUniqueViolation(e)) throw new ConflictError('Label already exists');
  throw e;
}

/** Creates a label and announces `work-items.label.created`; a title the owner already has is `409 Label already exists`. */
export async function createLabel(db: Knex, owner: LabelOwner, attrs: LabelAttributes, actorId: number | null): Promise<Label> {
  const c = validate(attrs);
  return db.transaction(async (trx) => {
    const label = await insertLabel(trx, owner, c);
    await emitLabelEvent(trx, LabelEvents.created, label, actorId);
    return label;
  }).catch(conflict);
}

/** Edits a label (new title, color, description, priority) and announces `work-items.label.updated`. */
export async function updateLabel(db: Knex, label: Label, attrs: LabelAttributes, actorId: number | null): Promise<Label> {
  const c = validate(attrs);
  return db.transaction(async (trx) => {
    const updated = await updateLabelColumns(trx, label.id, c);
    await emitLabelEvent(trx, LabelEvents.updated, updated, actorId);
    return updated;
  }).catch(conflict);
}

/** Deletes a label (its issue links go with it) and announces `work-items.label.deleted`. */
export async function deleteLabel(db: Knex, label: Label, actorId: number | null): Promise<void> {
  await db.transaction(async (trx) => {
    await deleteLabelById(trx, label.id);
    await emitLabelEvent(trx, LabelEvents.deleted, label, actorId);
  });
}

/**
 * The labels named `names` for an issue or merge request of the project: an existing project or
 * ancestor-group label of that exact title, else a new project label in the default color (as
 * GitLab does), announced as `work-items.label.created` in the caller's transaction.
 */
export async function findOrCreateProjectLabels(trx: Knex.Transaction, projectId: number, traversalIds: number[], names: string[], actorId: number | null): Promise<Label[]> {
  const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (!wanted.length) return [];
  const byTitle = new Map<string, Label>();
  for (const l of await labelsAvailableToProject(trx, projectId, traversalIds, wanted)) if (!byTitle.has(l.title) || l.projectId === projectId) byTitle.set(l.title, l);
  for (const title of wanted) {
    if (byTitle.has(title)) continue;
    const { label, inserted } = await ensureProjectLabel(trx, projectId, title);
    if (inserted) await emitLabelEvent(trx, LabelEvents.created, label, actorId);
    byTitle.set(title, label);
  }
  return wanted.map((t) => byTitle.get(t) as Label);
}
