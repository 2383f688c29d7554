import { type Db, PreparedStatement } from '@anvil/db';
import type { ConanInfo } from '../conan/conaninfo';
import type { RecipeRef } from '../conan/reference';
import { FILE_COLUMNS, type FileRow, type PackageFile, qualified, toPackageFile } from './types';

/** One stored file to record, with the revisions (and reference) it belongs to. */
export interface FileWrite extends Pick<PackageFile, 'projectId' | 'fileType' | 'fileName' | 'storageKey' | 'fileStore' | 'size' | 'md5' | 'sha1' | 'sha256'> {
  /** The package (of the project): by id, or by its reference. */
  package: { id: number } | { ref: RecipeRef };
  /** The id reserved for the file; a fresh one when absent. */
  id?: number;
  recipeRevision: string;
  /** Package files only. */
  packageReference?: string;
  packageRevision?: string;
  /** Set when this file is a parsed conaninfo.txt: becomes the reference's metadata. */
  info?: ConanInfo;
}

// Revisions and the reference are found or created, the file inserted or replacing the one of the same
// name in the same slot, and the package touched, in one atomic statement (one round trip). The key
// of the object a replacement displaced comes from the conflicting row itself (the newest committed
// version, whatever raced), never from the statement's snapshot.
// The package must exist in the project — named by id (looked up a moment ago, or reserved at an
// upload's pre-authorisation) or by its reference (the upload's hot path: no lookup before) —
// otherwise nothing is written and no row comes back. The file's id is the one reserved for it, or
// a fresh one from the sequence.
const PACKAGE_BY = {
  id: 'SELECT id FROM conan_packages WHERE id = :pkg AND project_id = :project',
  ref: 'SELECT id FROM conan_packages WHERE project_id = :project AND name = :n AND version = :v AND username = :u AND channel = :c',
};

type PackageBy = keyof typeof PACKAGE_BY;

function recipeCte(by: PackageBy): string {
  return `
pkg AS (${PACKAGE_BY[by]}),
rr_ins AS (INSERT INTO conan_recipe_revisions (package_id, revision) SELECT id, :rrev FROM pkg ON CONFLICT (package_id, revision) DO NOTHING RETURNING id),
rr AS (SELECT id FROM rr_ins UNION ALL SELECT r.id FROM conan_recipe_revisions r JOIN pkg ON r.package_id = pkg.id WHERE r.revision = :rrev LIMIT 1)`;
}

function packageCte(by: PackageBy): string {
  return `${recipeCte(by)},
pr AS (
  INSERT INTO conan_package_references (package_id, recipe_revision_id, reference, info)
  SELECT pkg.id, rr.id, :pref, COALESCE(CAST(:info AS jsonb), CAST('{}' AS jsonb)) FROM rr CROSS JOIN pkg
  ON CONFLICT (recipe_revision_id, reference) DO UPDATE SET info = COALESCE(CAST(:info AS jsonb), conan_package_references.info)
  RETURNING id),
pv_ins AS (INSERT INTO conan_package_revisions (package_reference_id, revision) SELECT id, :prev FROM pr ON CONFLICT (package_reference_id, revision) DO NOTHING RETURNING id),
pv AS (SELECT id FROM pv_ins UNION ALL SELECT v.id FROM conan_package_revisions v JOIN pr ON v.package_reference_id = pr.id WHERE v.revision = :prev LIMIT 1)`;
}

function statement(kind: FileWrite['fileType'], by: PackageBy): string {
  const pref = kind === 'package' ? '(SELECT id FROM pr)' : 'CAST(NULL AS bigint)';
  const prev = kind === 'package' ? '(SELECT id FROM pv)' : 'CAST(NULL AS bigint)';
  return `WITH ${kind === 'package' ? packageCte(by) : recipeCte(by)},
up AS (
  INSERT INTO conan_files (id, package_id, project_id, file_type, recipe_revision_id, package_reference_id, package_revision_id, file_name, storage_key, file_store, size, file_md5, file_sha1, file_sha256)
  SELECT COALESCE(CAST(:id AS bigint), nextval(pg_get_serial_sequence('conan_files', 'id'))), pkg.id, :project, :type, rr.id, ${pref}, ${prev}, :name, :key, :store, :size, :md5, :sha1, :sha256 FROM rr CROSS JOIN pkg
  ON CONFLICT (recipe_revision_id, (coalesce(package_revision_id, 0)), file_type, file_name) DO UPDATE SET
    id = EXCLUDED.id, storage_key = EXCLUDED.storage_key, file_store = EXCLUDED.file_store, size = EXCLUDED.size,
    file_md5 = EXCLUDED.file_md5, file_sha1 = EXCLUDED.file_sha1, file_sha256 = EXCLUDED.file_sha256,
    replaced_storage_key = conan_files.storage_key, created_at = now(), updated_at = now()
  RETURNING ${FILE_COLUMNS.join(', ')}, replaced_storage_key),
touch AS (UPDATE conan_packages SET updated_at = now() WHERE id = (SELECT id FROM pkg))
SELECT ${qualified('up', FILE_COLUMNS)}, up.replaced_storage_key AS replaced_key FROM up`;
}

const RECORD = {
  id: { recipe: new PreparedStatement(statement('recipe', 'id')), package: new PreparedStatement(statement('package', 'id')) },
  ref: { recipe: new PreparedStatement(statement('recipe', 'ref')), package: new PreparedStatement(statement('package', 'ref')) },
};

/** Records uploaded files in one statement each. */
export const fileWriteStore = {
  /**
   * Records `w`, creating its revisions and reference when missing and replacing the file of the same
   * name in the same slot. Returns the record and the storage key it replaced, or null when its
   * package is not there (deleted, or never created: by reference) or a concurrent delete removed the
   * revision in between (the caller retries, or creates the package).
   */
  async record(db: Db, w: FileWrite): Promise<{ file: PackageFile; replacedKey: string | null } | null> {
    const bindings: Record<string, unknown> = {
      rrev: w.recipeRevision,
      pref: w.packageReference ?? null,
      prev: w.packageRevision ?? null,
      info: w.info ? JSON.stringify(w.info) : null,
      type: w.fileType,
      name: w.fileName,
      id: w.id ?? null,
      project: w.projectId,
      key: w.storageKey,
      store: w.fileStore,
      size: w.size,
      md5: w.md5,
      sha1: w.sha1,
      sha256: w.sha256,
    };
    let st: PreparedStatement;
    if ('id' in w.package) {
      bindings.pkg = w.package.id;
      st = RECORD.id[w.fileType];
    } else {
      Object.assign(bindings, { n: w.package.ref.name, v: w.package.ref.version, u: w.package.ref.username, c: w.package.ref.channel });
      st = RECORD.ref[w.fileType];
    }
    const [row] = await st.rows<FileRow & { replaced_key: string | null }>(db, bindings);
    if (!row) return null;
    return { file: toPackageFile(row), replacedKey: row.replaced_key };
  },
};
