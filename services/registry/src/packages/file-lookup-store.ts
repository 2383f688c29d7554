import type { Db } from '@anvil/db';
import { type RecipeRef, V1_REVISION } from '../conan/reference';
import { type FileRow, type PackageFile, toPackageFile } from './types';

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

/** Download lookups: the package and the named file in one query (one round trip on the hot path). */
export const fileLookupStore = {
  /** The package's id (null: no such package) and the addressed file (null: none). */
  async find(db: Db, projectId: number, ref: RecipeRef, a: FileAddress, fileName: string): Promise<{ packageId: number | null; file: PackageFile | null }> {
    const sql = `SELECT p.id AS pkg_id, f.* FROM conan_packages p ${joins(a)}
      WHERE p.project_id = :project AND p.name = :n AND p.version = :v AND p.username = :u AND p.channel = :c LIMIT 1`;
    const r = await db.raw(sql, {
      project: projectId,
      n: ref.name,
      v: ref.version,
      u: ref.username,
      c: ref.channel,
      rrev: 'recipeRevision' in a ? a.recipeRevision : null,
      pref: 'packageReference' in a ? a.packageReference : null,
      prev: 'packageRevision' in a ? a.packageRevision : null,
      name: fileName,
    });
    const row = r.rows[0] as (FileRow & { pkg_id: string | number }) | undefined;
    if (!row) return { packageId: null, file: null };
    return { packageId: Number(row.pkg_id), file: row.id === null ? null : toPackageFile(row) };
  },
};
