import type { Knex } from 'knex';
import type { Owner } from '../access/owner-scope';
import { camelize, Camelized } from '../db/rows';

type Db = Knex | Knex.Transaction;

/** A `labels` row (project label when `project_id` is set, group label when `group_id` is). */
export interface LabelRow {
  id: number;
  title: string;
  color: string;
  description: string | null;
  project_id: number | null;
  group_id: number | null;
  priority: number | null;
}

/** A label: a project's (`projectId` set) or a group's (`groupId` set). */
export type Label = Camelized<LabelRow>;

/** Who owns a label: a project or a group (exactly one). */
export type LabelOwner = Owner;

/** Open/closed issue counts and open merge request counts of a label. */
export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

/** The domain label of a row (also of a row built by `json_build_object` with the same keys). */
export const labelFromRow: (r: LabelRow) => Label = camelize;

const rowsToLabels = (rows: LabelRow[]): Label[] => rows.map(labelFromRow);

/** GitLab's default label color. */
export const DEFAULT_LABEL_COLOR = '#6699cc';

/** Labels a project can use: its own and those of its ancestor groups, by title when given. */
export async function labelsAvailableToProject(db: Db, projectId: number, traversalIds: number[], titles?: string[]): Promise<Label[]> {
  const q = db('labels').where((w) => {
    w.where('project_id', projectId);
    if (traversalIds.length) w.orWhereIn('group_id', traversalIds);
  });
  if (titles) q.whereIn('title', titles);
  return rowsToLabels(await q.orderBy('title').orderBy('id'));
}

/** Labels of a group and its ancestors. */
export async function labelsAvailableToGroup(db: Db, traversalIds: number[], titles?: string[]): Promise<Label[]> {
  const q = db('labels').whereIn('group_id', traversalIds);
  if (titles) q.whereIn('title', titles);
  return rowsToLabels(await q.orderBy('title').orderBy('id'));
}

/**
 * A project label of exactly `title` in the default color (as GitLab creates unknown labels); an
 * existing one is returned as it is. `inserted` says whether this call created it.
 */
export async function ensureProjectLabel(db: Db, projectId: number, title: string): Promise<{ label: Label; inserted: boolean }> {
  const r = await db.raw(
    `INSERT INTO labels (title, color, project_id) VALUES (?, ?, ?)
     ON CONFLICT (project_id, title) WHERE project_id IS NOT NULL DO UPDATE SET updated_at = labels.updated_at RETURNING *, (xmax = 0) AS inserted`,
    [title, DEFAULT_LABEL_COLOR, projectId],
  );
  const { inserted, ...row } = r.rows[0] as LabelRow & { inserted: boolean };
  return { label: labelFromRow(row), inserted };
}

/** Labels by id. */
export async function labelsByIds(db: Db, ids: number[]): Promise<Label[]> {
  if (!ids.length) return [];
  return rowsToLabels(await db('labels').whereIn('id', ids));
}

/** A label of the owner: by id when `ref` is all digits, else by title. */
export async function findOwnLabel(db: Db, owner: LabelOwner, ref: string): Promise<Label | undefined> {
  const q = db('labels').where(owner.projectId !== null ? { project_id: owner.projectId } : { group_id: owner.groupId });
  const row: LabelRow | undefined = await (/^\d+$/.test(ref) ? q.where({ id: Number(ref) }) : q.where({ title: ref })).first();
  return row && labelFromRow(row);
}

/** Inserts a label with the given columns; a duplicate title raises the unique violation. */
export async function insertLabel(db: Db, owner: LabelOwner, columns: Record<string, unknown>): Promise<Label> {
  const [row] = await db('labels').insert({ ...columns, project_id: owner.projectId, group_id: owner.groupId }).returning('*');
  return labelFromRow(row);
}

/** Updates a label's columns and `updated_at`; a duplicate title raises the unique violation. */
export async function updateLabelColumns(db: Db, id: number, columns: Record<string, unknown>): Promise<Label> {
  const [row] = await db('labels').where({ id }).update({ ...columns, updated_at: new Date() }).returning('*');
  return labelFromRow(row);
}

/** Deletes a label (its issue and merge request links go with it, by foreign key). */
export async function deleteLabelById(db: Db, id: number): Promise<void> {
  await db('labels').where({ id }).delete();
}

/** Open/closed issue counts and open merge request counts of labels. */
export async function labelCounts(db: Db, ids: number[]): Promise<Map<number, LabelCounts>> {
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

/** `#FFFFFF` on dark backgrounds, `#333333` on light ones (GitLab's rule for `text_color`). */
export function textColorFor(color: string): string {
  const hex = color.replace('#', '');
  const full = hex.length === 3 ? hex.split('').map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return r + g + b > 500 ? '#333333' : '#FFFFFF';
}

const NAMED: Record<string, string> = {
  red: '#FF0000', green: '#008000', blue: '#0000FF', yellow: '#FFFF00', orange: '#FFA500', purple: '#800080',
  black: '#000000', white: '#FFFFFF', gray: '#808080', grey: '#808080', pink: '#FFC0CB', brown: '#A52A2A',
};

/** A valid color (`#RGB`, `#RRGGBB` or a basic CSS name) in the form stored, or null. */
export function normalizeColor(input: string): string | null {
  const s = input.trim();
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(s)) return s;
  return NAMED[s.toLowerCase()] ?? null;
}
