import type { Knex } from 'knex';
import { ConflictError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import { deleteLabelById, insertLabel, Label, LabelOwner, normalizeColor, updateLabelColumns } from './label-store';

type Db = Knex | Knex.Transaction;

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

/** Creates a label; a title the owner already has is `409 Label already exists`. */
export async function createLabel(db: Db, owner: LabelOwner, attrs: LabelAttributes): Promise<Label> {
  const c = validate(attrs);
  return insertLabel(db, owner, c).catch(conflict);
}

/** Edits a label (new title, color, description, priority). */
export async function updateLabel(db: Db, label: Label, attrs: LabelAttributes): Promise<Label> {
  const c = validate(attrs);
  return updateLabelColumns(db, label.id, c).catch(conflict);
}

/** Deletes a label (its issue links go with it). */
export async function deleteLabel(db: Db, label: Label): Promise<void> {
  await deleteLabelById(db, label.id);
}
