import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** A label row (project label when `project_id` is set, group label when `group_id` is). */
export interface LabelRow {
  id: number;
  title: string;
  color: string;
  description: string | null;
  project_id: number | null;
  group_id: number | null;
  priority: number | null;
  created_at: Date;
  updated_at: Date;
}

/** GitLab's default label color. */
export const DEFAULT_LABEL_COLOR = '#6699cc';

/** Labels a project can use: its own and those of its ancestor groups, by title when given. */
export async function labelsAvailableToProject(db: Db, projectId: number, traversalIds: number[], titles?: string[]): Promise<LabelRow[]> {
  const q = db('labels').where((w) => {
    w.where('project_id', projectId);
    if (traversalIds.length) w.orWhereIn('group_id', traversalIds);
  });
  if (titles) q.whereIn('title', titles);
  return q.orderBy('title').orderBy('id');
}

/** Labels of a group and its ancestors. */
export async function labelsAvailableToGroup(db: Db, traversalIds: number[], titles?: string[]): Promise<LabelRow[]> {
  const q = db('labels').whereIn('group_id', traversalIds);
  if (titles) q.whereIn('title', titles);
  return q.orderBy('title').orderBy('id');
}

/**
 * The labels named `names` for an issue of the project: an existing project or ancestor-group
 * label of that exact title, else a new project label in the default color (as GitLab does).
 */
export async function findOrCreateProjectLabels(db: Db, projectId: number, traversalIds: number[], names: string[]): Promise<LabelRow[]> {
  const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (!wanted.length) return [];
  const existing = await labelsAvailableToProject(db, projectId, traversalIds, wanted);
  const byTitle = new Map<string, LabelRow>();
  for (const l of existing) if (!byTitle.has(l.title) || l.project_id === projectId) byTitle.set(l.title, l);
  for (const title of wanted) {
    if (byTitle.has(title)) continue;
    const r = await db.raw(
      `INSERT INTO labels (title, color, project_id) VALUES (?, ?, ?)
       ON CONFLICT (project_id, title) WHERE project_id IS NOT NULL DO UPDATE SET updated_at = labels.updated_at RETURNING *`,
      [title, DEFAULT_LABEL_COLOR, projectId],
    );
    const row: LabelRow = r.rows[0];
    byTitle.set(title, row);
  }
  return wanted.map((t) => byTitle.get(t) as LabelRow);
}

/** Label ids per title, over all labels (the finder resolves names once, then probes by id). */
export async function labelIdsByTitle(db: Db, titles: string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(titles.map((t) => [t, []]));
  if (!titles.length) return out;
  const rows: { id: number; title: string }[] = await db('labels').select('id', 'title').whereIn('title', titles);
  for (const r of rows) out.get(r.title)?.push(r.id);
  return out;
}

/** Labels by id. */
export async function labelsByIds(db: Db, ids: number[]): Promise<LabelRow[]> {
  if (!ids.length) return [];
  return db('labels').whereIn('id', ids);
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
