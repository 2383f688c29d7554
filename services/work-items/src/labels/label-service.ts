import type { Knex } from 'knex';
import { ConflictError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import { LabelRow, normalizeColor } from './label-store';

type Db = Knex | Knex.Transaction;

/** A project label (`projectId`) or a group label (`groupId`). */
export interface LabelOwner {
  projectId: number | null;
  groupId: number | null;
}

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

/** Creates a label; a title the owner already has is `409 Label already exists`. */
export async function createLabel(db: Db, owner: LabelOwner, attrs: LabelAttributes): Promise<LabelRow> {
  const c = validate(attrs);
  try {
    const [row] = await db('labels').insert({ ...c, project_id: owner.projectId, group_id: owner.groupId }).returning('*');
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError('Label already exists');
    throw e;
  }
}

/** Edits a label (new title, color, description, priority). */
export async function updateLabel(db: Db, label: LabelRow, attrs: LabelAttributes): Promise<LabelRow> {
  const c = validate(attrs);
  try {
    const [row] = await db('labels').where({ id: label.id }).update({ ...c, updated_at: new Date() }).returning('*');
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError('Label already exists');
    throw e;
  }
}

/** Deletes a label (its issue links go with it). */
export async function deleteLabel(db: Db, label: LabelRow): Promise<void> {
  await db('labels').where({ id: label.id }).delete();
}

/** A label of the owner by id or by title (`:label_id` accepts both). */
export async function findOwnLabel(db: Db, owner: LabelOwner, ref: string): Promise<LabelRow | undefined> {
  const q = db('labels').where(owner.projectId !== null ? { project_id: owner.projectId } : { group_id: owner.groupId });
  if (/^\d+$/.test(ref)) return q.clone().where({ id: Number(ref) }).first() ?? q.clone().where({ title: ref }).first();
  return q.where({ title: ref }).first();
}

/** Open/closed issue counts and open merge request counts of labels. */
export async function labelCounts(db: Db, ids: number[]): Promise<Map<number, { open_issues_count: number; closed_issues_count: number; open_merge_requests_count: number }>> {
  const out = new Map(ids.map((id) => [id, { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }]));
  if (!ids.length) return out;
  const issues: { label_id: number; state: string; n: number }[] = await db('issue_labels as il').join('issues as i', 'i.id', 'il.issue_id')
    .whereIn('il.label_id', ids).select('il.label_id', 'i.state').count({ n: '*' }).groupBy('il.label_id', 'i.state');
  for (const r of issues) {
    const c = out.get(r.label_id);
    if (c) c[r.state === 'opened' ? 'open_issues_count' : 'closed_issues_count'] = Number(r.n);
  }
  const mrs: { label_id: number; n: number }[] = await db('merge_request_labels as ml').join('merge_requests as m', 'm.id', 'ml.merge_request_id')
    .whereIn('ml.label_id', ids).where('m.state', 'opened').select('ml.label_id').count({ n: '*' }).groupBy('ml.label_id');
  for (const r of mrs) {
    const c = out.get(r.label_id);
    if (c) c.open_merge_requests_count = Number(r.n);
  }
  return out;
}
