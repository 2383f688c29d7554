import type { Knex } from 'knex';
import type { Db } from '../sql';
import { Namespace, NamespaceRow, toNamespace } from './namespace';

/** The columns of `namespaces` (listed, never `*`: group reads are prepared statements). */
export const NAMESPACE_COLUMNS = ['id', 'kind', 'name', 'path', 'full_path', 'parent_id', 'traversal_ids', 'owner_id', 'visibility', 'description', 'settings', 'created_at', 'updated_at'];

/** `namespaces` columns plus `full_name`, computed from the ancestors in one indexed subquery. */
export function namespaceSelect(db: Db, alias = 'namespaces'): Knex.QueryBuilder {
  return db(`namespaces as ${alias}`).select(
    ...NAMESPACE_COLUMNS.map((c) => `${alias}.${c}`),
    db.raw(`(SELECT string_agg(a.name, ' / ' ORDER BY array_position(${alias}.traversal_ids, a.id)) FROM namespaces a WHERE a.id = ANY(${alias}.traversal_ids)) AS full_name`),
  );
}

/** Reads and writes `namespaces`. */
export const namespaceStore = {
  /** A namespace by id, or null. */
  async findById(db: Db, id: number): Promise<Namespace | null> {
    const row = (await namespaceSelect(db).where('namespaces.id', id).first()) as NamespaceRow | undefined;
    return row ? toNamespace(row) : null;
  },

  /** A namespace by full path, case-insensitive, or null. */
  async findByFullPath(db: Db, fullPath: string): Promise<Namespace | null> {
    const row = (await namespaceSelect(db).whereRaw('lower(namespaces.full_path) = lower(?)', [fullPath]).first()) as NamespaceRow | undefined;
    return row ? toNamespace(row) : null;
  },

  /** The personal namespace of a user, or null. */
  async findByOwner(db: Db, userId: number): Promise<Namespace | null> {
    const row = (await namespaceSelect(db).where({ 'namespaces.owner_id': userId, 'namespaces.kind': 'user' }).first()) as NamespaceRow | undefined;
    return row ? toNamespace(row) : null;
  },

  /** Whether a full path is in use (case-insensitive), ignoring namespace `exceptId`. */
  async fullPathTaken(db: Db, fullPath: string, exceptId?: number): Promise<boolean> {
    const q = db('namespaces').whereRaw('lower(full_path) = lower(?)', [fullPath]);
    if (exceptId) q.whereNot('id', exceptId);
    return !!(await q.first('id'));
  },

  /**
   * Inserts a namespace under `parent` (or at the top) and sets its traversal ids
   * (`parent.traversal_ids || id`). Returns the new id.
   */
  async insert(db: Db, row: Pick<NamespaceRow, 'kind' | 'name' | 'path' | 'visibility'> & Partial<Pick<NamespaceRow, 'owner_id' | 'description' | 'settings'>>, parent: Namespace | null): Promise<number> {
    const fullPath = parent ? `${parent.fullPath}/${row.path}` : row.path;
    const [r] = await db('namespaces')
      .insert({ ...row, settings: JSON.stringify(row.settings ?? {}), full_path: fullPath, parent_id: parent?.id ?? null })
      .returning('id');
    const id = (r as { id: number }).id;
    await db('namespaces').where({ id }).update({ traversal_ids: [...(parent?.traversalIds ?? []), id] });
    return id;
  },

  /** Updates columns of a namespace (not its path: see `renamePath`). */
  async update(db: Db, id: number, patch: Partial<Pick<NamespaceRow, 'name' | 'visibility' | 'description' | 'settings'>>): Promise<void> {
    const { settings, ...rest } = patch;
    await db('namespaces')
      .where({ id })
      .update({ ...rest, ...(settings ? { settings: JSON.stringify(settings) } : {}), updated_at: db.fn.now() });
  },

  /** Changes a namespace's path and rewrites the full paths of it and every descendant. */
  async renamePath(db: Db, ns: Namespace, newPath: string): Promise<void> {
    const oldFull = ns.fullPath;
    const newFull = ns.parentId ? `${oldFull.slice(0, oldFull.length - ns.path.length)}${newPath}` : newPath;
    await db('namespaces').where({ id: ns.id }).update({ path: newPath, updated_at: db.fn.now() });
    await db.raw(`UPDATE namespaces SET full_path = ? || substr(full_path, ?) WHERE traversal_ids @> ARRAY[?]::integer[]`, [newFull, oldFull.length + 1, ns.id]);
  },

  /** Ids of a namespace and all its descendants. */
  async selfAndDescendantIds(db: Db, id: number): Promise<number[]> {
    const rows = (await db('namespaces').whereRaw('traversal_ids @> ARRAY[?]::integer[]', [id]).select('id')) as { id: number }[];
    return rows.map((r) => r.id);
  },
};
