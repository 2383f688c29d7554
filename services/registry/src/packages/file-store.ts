import type { Db } from '@anvil/db';
import type { FileType } from '../conan/reference';
import { MAX_LISTED } from './revision-store';
import { type FileRow, type PackageFile, toPackageFile } from './types';

/** A file row to insert (the id was reserved before its bytes were stored). */
export interface NewFile {
  id: number;
  packageId: number;
  projectId: number;
  fileType: FileType;
  recipeRevisionId: number;
  packageReferenceId: number | null;
  packageRevisionId: number | null;
  fileName: string;
  storageKey: string;
  fileStore: number;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
}

/** Where a file sits: a recipe revision, or a package revision (with its reference). */
export type FileSlot = { fileType: 'recipe'; recipeRevisionId: number } | { fileType: 'package'; recipeRevisionId: number; packageRevisionId: number };

function whereSlot(db: Db, slot: FileSlot) {
  const q = db<FileRow>('conan_files').where({ recipe_revision_id: slot.recipeRevisionId, file_type: slot.fileType });
  if (slot.fileType === 'package') q.where({ package_revision_id: slot.packageRevisionId });
  return q;
}

/** File records (`conan_files`). */
export const fileStore = {
  /** A fresh id for a file whose bytes are about to be stored under a key that names it. */
  async reserveId(db: Db): Promise<number> {
    const r = await db.raw(`SELECT nextval(pg_get_serial_sequence('conan_files', 'id')) AS id`);
    return Number(r.rows[0].id);
  },

  /**
   * Inserts `f`, replacing the file of the same name in the same slot; returns the new record and the
   * storage key of the one it replaced (to delete once the transaction committed).
   */
  async replace(trx: Db, f: NewFile): Promise<{ file: PackageFile; replacedKey: string | null }> {
    const slot: FileSlot =
      f.fileType === 'recipe' ? { fileType: 'recipe', recipeRevisionId: f.recipeRevisionId } : { fileType: 'package', recipeRevisionId: f.recipeRevisionId, packageRevisionId: f.packageRevisionId! };
    const old = await whereSlot(trx, slot).where({ file_name: f.fileName }).delete(['storage_key']);
    const [row] = await trx<FileRow>('conan_files')
      .insert({
        id: f.id,
        package_id: f.packageId,
        project_id: f.projectId,
        file_type: f.fileType,
        recipe_revision_id: f.recipeRevisionId,
        package_reference_id: f.packageReferenceId,
        package_revision_id: f.packageRevisionId,
        file_name: f.fileName,
        storage_key: f.storageKey,
        file_store: f.fileStore,
        size: f.size,
        file_md5: f.md5,
        file_sha1: f.sha1,
        file_sha256: f.sha256,
      })
      .returning('*');
    const replaced = old[0] as { storage_key: string } | undefined;
    return { file: toPackageFile(row as FileRow), replacedKey: replaced?.storage_key ?? null };
  },

  /** The files of a slot, oldest first, at most 1000. */
  async list(db: Db, slot: FileSlot): Promise<PackageFile[]> {
    const rows = await whereSlot(db, slot).orderBy('id').limit(MAX_LISTED);
    return rows.map(toPackageFile);
  },

  /** One file of a slot by name, or null. */
  async find(db: Db, slot: FileSlot, fileName: string): Promise<PackageFile | null> {
    const row = await whereSlot(db, slot).where({ file_name: fileName }).first();
    return row ? toPackageFile(row) : null;
  },

  /** Storage keys of the files under a package, a recipe revision, a package reference or a package revision. */
  async keys(db: Db, where: { packageId: number } | { recipeRevisionId: number } | { packageReferenceId: number } | { packageRevisionId: number }): Promise<string[]> {
    const col = 'packageId' in where ? 'package_id' : 'recipeRevisionId' in where ? 'recipe_revision_id' : 'packageReferenceId' in where ? 'package_reference_id' : 'package_revision_id';
    const id = Object.values(where)[0] as number;
    const rows = await db('conan_files').where(col, id).select<{ storage_key: string }[]>('storage_key');
    return rows.map((r) => r.storage_key);
  },

  /** Storage keys of every file of a project. */
  async keysForProject(db: Db, projectId: number): Promise<string[]> {
    const rows = await db('conan_files').where({ project_id: projectId }).select<{ storage_key: string }[]>('storage_key');
    return rows.map((r) => r.storage_key);
  },
};
