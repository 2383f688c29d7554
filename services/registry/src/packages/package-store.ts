import { type Db, PreparedStatement } from '@anvil/db';
import type { RecipeRef } from '../conan/reference';
import type { Matcher } from '../conan/search-query';
import { type Package, PACKAGE_COLUMNS, type PackageRow, qualified, toPackage } from './types';

const FIND_RESERVING_FILE_ID = new PreparedStatement(
  `SELECT ${qualified('p', PACKAGE_COLUMNS)}, nextval(pg_get_serial_sequence('conan_files', 'id')) AS next_file_id FROM conan_packages p
   WHERE p.project_id = :project AND p.name = :name AND p.version = :version AND p.username = :username AND p.channel = :channel`,
);

/** What a search selects: projects (ids), name/version matchers, case sensitivity, a limit. */
export interface PackageSearch {
  projectIds: number[];
  name: Matcher;
  version?: Matcher;
  ignoreCase: boolean;
  limit: number;
}

/** Conan packages (`conan_packages`). Every method takes the knex or transaction to run on. */
export const packageStore = {
  /** The package of `ref` in a project, or null. */
  async find(db: Db, projectId: number, ref: RecipeRef): Promise<Package | null> {
    const row = await db<PackageRow>('conan_packages')
      .where({ project_id: projectId, name: ref.name, version: ref.version, username: ref.username, channel: ref.channel })
      .first();
    return row ? toPackage(row) : null;
  },

  /** The package of `ref` and a fresh file id in one round trip (the upload hot path), or null. */
  async findReservingFileId(db: Db, projectId: number, ref: RecipeRef): Promise<{ pkg: Package; fileId: number } | null> {
    const [row] = await FIND_RESERVING_FILE_ID.rows<PackageRow & { next_file_id: string }>(db, { project: projectId, name: ref.name, version: ref.version, username: ref.username, channel: ref.channel });
    return row ? { pkg: toPackage(row), fileId: Number(row.next_file_id) } : null;
  },

  /** The package of `ref`, created when missing; `created` tells which. Safe against concurrent creators. */
  async findOrCreate(trx: Db, projectId: number, ref: RecipeRef): Promise<{ pkg: Package; created: boolean }> {
    const values = { project_id: projectId, name: ref.name, version: ref.version, username: ref.username, channel: ref.channel };
    const inserted = await trx<PackageRow>('conan_packages').insert(values).onConflict(['project_id', 'name', 'version', 'username', 'channel']).ignore().returning('*');
    if (inserted.length) return { pkg: toPackage(inserted[0] as PackageRow), created: true };
    const row = await trx<PackageRow>('conan_packages').where(values).first();
    if (!row) throw new Error('conan package vanished while being created');
    return { pkg: toPackage(row), created: false };
  },

  /** Marks a package as changed now. */
  async touch(trx: Db, id: number): Promise<void> {
    await trx('conan_packages').where({ id }).update({ updated_at: trx.fn.now() });
  },

  /** Deletes a package; its revisions, references and file rows cascade. */
  async delete(trx: Db, id: number): Promise<void> {
    await trx('conan_packages').where({ id }).delete();
  },

  /** Deletes every package of a project (rows below cascade). */
  async deleteForProject(trx: Db, projectId: number): Promise<void> {
    await trx('conan_packages').where({ project_id: projectId }).delete();
  },

  /** Every package of a project (for project deletion). */
  async listForProject(db: Db, projectId: number): Promise<Package[]> {
    const rows = await db<PackageRow>('conan_packages').where({ project_id: projectId }).orderBy('id');
    return rows.map(toPackage);
  },

  /** Packages matching a search in the given projects, most recent first. */
  async search(db: Db, s: PackageSearch): Promise<Package[]> {
    if (s.projectIds.length === 0) return [];
    // one array parameter, not one per project: an instance-level search may cover more projects
    // than a statement can bind parameters for (65,535)
    const q = db<PackageRow>('conan_packages').whereRaw('project_id = ANY(?::bigint[])', [s.projectIds]);
    if (s.ignoreCase) q.whereRaw(`lower(name) LIKE lower(?) ESCAPE '\\'`, [s.name.value]);
    else q.whereRaw(`name LIKE ? ESCAPE '\\'`, [s.name.value]);
    if (s.version?.op === 'like') q.whereRaw(`version LIKE ? ESCAPE '\\'`, [s.version.value]);
    else if (s.version) q.where('version', s.version.value);
    const rows = await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(s.limit);
    return rows.map(toPackage);
  },
};
