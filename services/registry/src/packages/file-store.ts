import type { Db } from '@anvil/db';
import { MAX_LISTED } from './revision-store';
import { type FileRow, type PackageFile, toPackageFile } from './types';

/** Where a file sits: a recipe revision, or a package revision (with its reference). */
export type FileSlot = { fileType: 'recipe'; recipeRevisionId: number } | { fileType: 'package'; recipeRevisionId: number; packageRevisionId: number };

function whereSlot(db: Db, slot: FileSlot) {
  const q = db<FileRow>('conan_files').where({ recipe_revision_id: slot.recipeRevisionId, file_type: slot.fileType });
  if (slot.fileType === 'package') q.where({ package_revision_id: slot.packageRevisionId });
  return q;
}

/** File records (`conan_files`). */
export const fileStore = {
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
