import { type Db, PreparedStatement } from '@anvil/db';
import { type RecipeRef, V1_REVISION } from '../conan/reference';
import { FILE_COLUMNS, type FileRow, type PackageFile, qualified, toPackageFile } from './types';

/** Which file a download names: by v2 revisions, or the v1 view (revision `0` if written, else newest). */
export type FileAddress =
  | { protocol: 'v2'; kind: 'recipe'; recipeRevision: string }
  | { protocol: 'v2'; kind: 'package'; recipeRevision: string; packageReference: string; packageRevision: string }
  | { protocol: 'v1'; kind: 'recipe' }
  | { protocol: 'v1'; kind: 'package'; packageReference: string };

const V1_PICK = `ORDER BY (revision = '${V1_REVISION}') DESC, id DESC LIMIT 1`;

function joins(a: FileAddress): string {
  const rr = a.protocol === 'v2' ? 'LEFT JOIN conan_recipe_revisions r ON r.package_id = p.id AND r.revision = :rrev' : `LEFT JOIN LATERAL (SELECT id FROM conan_recipe_revisions WHERE package_id = p.id ${V1_PICK}) r ON true`;
  if (a.kind === 'recipe') return `${rr} LEFT JOIN conan_files f ON f.recipe_revision_id = r.id AND f.package_revision_id IS NULL AND f.file_type = 'recipe' AND f.file_name = :name`;
  const pr = 'LEFT JOIN conan_package_references pr ON pr.recipe_revision_id = r.id AND pr.reference = :pref';
  const pv =
    a.protocol === 'v2'
      ? 'LEFT JOIN conan_package_revisions v ON v.package_reference_id = pr.id AND v.revision = :prev'
      : `LEFT JOIN LATERAL (SELECT id FROM conan_package_revisions WHERE package_reference_id = pr.id ${V1_PICK}) v ON true`;
  return `${rr} ${pr} ${pv} LEFT JOIN conan_files f ON f.package_revision_id = v.id AND f.file_type = 'package' AND f.file_name = :name`;
}

/** The lookup statement of each kind of address (four), prepared. */
const LOOKUPS = new Map<string, PreparedStatement>();

function lookup(a: FileAddress): PreparedStatement {
  const kind = `${a.protocol}/${a.kind}`;
  let st = LOOKUPS.get(kind);
  if (!st) {
    st = new PreparedStatement(`SELECT p.id AS pkg_id, ${qualified('f', FILE_COLUMNS)} FROM conan_packages p ${joins(a)}
      WHERE p.project_id = :project AND p.name = :n AND p.version = :v AND p.username = :u AND p.channel = :c LIMIT 1`);
    LOOKUPS.set(kind, st);
  }
  return st;
}

/** Download lookups: the package and the named file in one query (one round trip on the hot path). */
export const fileLookupStore = {
  /** The package's id (null: no such package) and the addressed file (null: none). */
  async find(db: Db, projectId: number, ref: RecipeRef, a: FileAddress, fileName: string): Promise<{ packageId: number | null; file: PackageFile | null }> {
    const st = lookup(a);
    const bindings: Record<string, unknown> = { project: projectId, n: ref.name, v: ref.version, u: ref.username, c: ref.channel, name: fileName };
    if ('recipeRevision' in a) bindings.rrev = a.recipeRevision;
    if ('packageReference' in a) bindings.pref = a.packageReference;
    if ('packageRevision' in a) bindings.prev = a.packageRevision;
    const [row] = await st.rows<FileRow & { pkg_id: string | number }>(db, bindings);
    if (!row) return { packageId: null, file: null };
    return { packageId: Number(row.pkg_id), file: row.id === null ? null : toPackageFile(row) };
  },
};
