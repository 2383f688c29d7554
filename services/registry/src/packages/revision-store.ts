import type { Db } from '@anvil/db';
import { V1_REVISION } from '../conan/reference';
import { type PackageReference, type PackageReferenceRow, type Revision, toPackageReference, toRevision } from './types';

/** Most revisions or files one listing returns (GitLab's MAX_FILES_COUNT / revisions limit). */
export const MAX_LISTED = 1000;

/** The reads and deletes of one revision table, each revision under one parent row. */
export interface RevisionStore {
  find(db: Db, parentId: number, revision: string): Promise<Revision | null>;
  /** v2 revisions (not `0`), newest (highest id) first, at most MAX_LISTED. */
  listV2(db: Db, parentId: number): Promise<Revision[]>;
  /** The newest v2 revision (highest id), or null. */
  latestV2(db: Db, parentId: number): Promise<Revision | null>;
  /** The v1 view: revision `0` when v1 wrote one, else the newest v2 revision. */
  forV1(db: Db, parentId: number): Promise<Revision | null>;
  /** How many v2 revisions (not `0`) the parent has. */
  countV2(db: Db, parentId: number): Promise<number>;
  delete(trx: Db, id: number): Promise<void>;
}

/** A revision store over `table`, whose rows hang off their parent by `parentColumn`. */
function revisionStore(table: string, parentColumn: string): RevisionStore {
  const of = (db: Db, parentId: number) => db(table).where({ [parentColumn]: parentId });
  const v2Of = (db: Db, parentId: number) => of(db, parentId).whereNot({ revision: V1_REVISION });
  return {
    async find(db, parentId, revision) {
      const row = await of(db, parentId).where({ revision }).first();
      return row ? toRevision(row) : null;
    },
    async listV2(db, parentId) {
      const rows = await v2Of(db, parentId).orderBy('id', 'desc').limit(MAX_LISTED);
      return rows.map(toRevision);
    },
    async latestV2(db, parentId) {
      const row = await v2Of(db, parentId).orderBy('id', 'desc').first();
      return row ? toRevision(row) : null;
    },
    async forV1(db, parentId) {
      const row = await of(db, parentId).orderByRaw('(revision = ?) desc, id desc', [V1_REVISION]).first();
      return row ? toRevision(row) : null;
    },
    async countV2(db, parentId) {
      const r = await v2Of(db, parentId).count<{ count: string }[]>('id as count');
      return Number(r[0].count);
    },
    async delete(trx, id) {
      await trx(table).where({ id }).delete();
    },
  };
}

/** Recipe revisions (`conan_recipe_revisions`) of a package; `0` is the v1 revision, hidden from v2 listings. */
export const recipeRevisionStore = revisionStore('conan_recipe_revisions', 'package_id');

/** Package revisions (`conan_package_revisions`) of a package reference; `0` is the v1 revision. */
export const packageRevisionStore = revisionStore('conan_package_revisions', 'package_reference_id');

/** Package references (`conan_package_references`) and their conaninfo metadata. */
export const packageReferenceStore = {
  async find(db: Db, recipeRevisionId: number, reference: string): Promise<PackageReference | null> {
    const row = await db<PackageReferenceRow>('conan_package_references').where({ recipe_revision_id: recipeRevisionId, reference }).first();
    return row ? toPackageReference(row) : null;
  },

  /** Every reference of a package (all revisions, oldest first), or of one recipe revision. */
  async list(db: Db, where: { packageId: number } | { recipeRevisionId: number }): Promise<PackageReference[]> {
    const q = db<PackageReferenceRow>('conan_package_references');
    if ('packageId' in where) q.where({ package_id: where.packageId });
    else q.where({ recipe_revision_id: where.recipeRevisionId });
    const rows = await q.orderBy('id');
    return rows.map(toPackageReference);
  },

  async delete(trx: Db, id: number): Promise<void> {
    await trx('conan_package_references').where({ id }).delete();
  },
};
