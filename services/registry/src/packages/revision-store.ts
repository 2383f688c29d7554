import type { Db } from '@anvil/db';
import { V1_REVISION } from '../conan/reference';
import type { ConanInfo } from '../conan/conaninfo';
import { type PackageReference, type PackageReferenceRow, type Revision, type RevisionRow, toPackageReference, toRevision } from './types';

/** Most revisions or files one listing returns (GitLab's MAX_FILES_COUNT / revisions limit). */
export const MAX_LISTED = 1000;

async function ensure(trx: Db, table: string, parent: Record<string, number>, revision: string): Promise<Revision> {
  const existing = await trx(table).where({ ...parent, revision }).first();
  if (existing) return toRevision(existing);
  const inserted = await trx(table).insert({ ...parent, revision }).onConflict([...Object.keys(parent), 'revision']).ignore().returning('*');
  if (inserted.length) return toRevision(inserted[0] as RevisionRow);
  const row = await trx(table).where({ ...parent, revision }).first();
  if (!row) throw new Error(`${table}: revision vanished while being created`);
  return toRevision(row);
}

/** Recipe revisions (`conan_recipe_revisions`); `0` is the v1 revision, hidden from v2 listings. */
export const recipeRevisionStore = {
  /** The recipe revision, created when missing. */
  ensure(trx: Db, packageId: number, revision: string): Promise<Revision> {
    return ensure(trx, 'conan_recipe_revisions', { package_id: packageId }, revision);
  },

  async find(db: Db, packageId: number, revision: string): Promise<Revision | null> {
    const row = await db('conan_recipe_revisions').where({ package_id: packageId, revision }).first();
    return row ? toRevision(row) : null;
  },

  /** v2 revisions (not `0`), newest (highest id) first, at most 1000. */
  async listV2(db: Db, packageId: number): Promise<Revision[]> {
    const rows = await db('conan_recipe_revisions').where({ package_id: packageId }).whereNot({ revision: V1_REVISION }).orderBy('id', 'desc').limit(MAX_LISTED);
    return rows.map(toRevision);
  },

  /** The newest v2 revision (highest id), or null. */
  async latestV2(db: Db, packageId: number): Promise<Revision | null> {
    const row = await db('conan_recipe_revisions').where({ package_id: packageId }).whereNot({ revision: V1_REVISION }).orderBy('id', 'desc').first();
    return row ? toRevision(row) : null;
  },

  /** The v1 view of a package: revision `0` when v1 wrote one, else the newest v2 revision. */
  async forV1(db: Db, packageId: number): Promise<Revision | null> {
    const row = await db('conan_recipe_revisions')
      .where({ package_id: packageId })
      .orderByRaw('(revision = ?) desc, id desc', [V1_REVISION])
      .first();
    return row ? toRevision(row) : null;
  },

  /** How many v2 revisions (not `0`) the package has. */
  async countV2(db: Db, packageId: number): Promise<number> {
    const r = await db('conan_recipe_revisions').where({ package_id: packageId }).whereNot({ revision: V1_REVISION }).count<{ count: string }[]>('id as count');
    return Number(r[0].count);
  },

  async delete(trx: Db, id: number): Promise<void> {
    await trx('conan_recipe_revisions').where({ id }).delete();
  },
};

/** Package references (`conan_package_references`) and their conaninfo metadata. */
export const packageReferenceStore = {
  /** The reference under a recipe revision, created when missing. */
  async ensure(trx: Db, packageId: number, recipeRevisionId: number, reference: string): Promise<PackageReference> {
    const values = { package_id: packageId, recipe_revision_id: recipeRevisionId, reference };
    const existing = await trx<PackageReferenceRow>('conan_package_references').where(values).first();
    if (existing) return toPackageReference(existing);
    const inserted = await trx<PackageReferenceRow>('conan_package_references').insert(values).onConflict(['recipe_revision_id', 'reference']).ignore().returning('*');
    if (inserted.length) return toPackageReference(inserted[0] as PackageReferenceRow);
    const row = await trx<PackageReferenceRow>('conan_package_references').where(values).first();
    if (!row) throw new Error('package reference vanished while being created');
    return toPackageReference(row);
  },

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

  async setInfo(trx: Db, id: number, info: ConanInfo): Promise<void> {
    await trx('conan_package_references').where({ id }).update({ info: JSON.stringify(info) });
  },

  async delete(trx: Db, id: number): Promise<void> {
    await trx('conan_package_references').where({ id }).delete();
  },
};

/** Package revisions (`conan_package_revisions`); `0` is the v1 revision. */
export const packageRevisionStore = {
  ensure(trx: Db, packageReferenceId: number, revision: string): Promise<Revision> {
    return ensure(trx, 'conan_package_revisions', { package_reference_id: packageReferenceId }, revision);
  },

  async find(db: Db, packageReferenceId: number, revision: string): Promise<Revision | null> {
    const row = await db('conan_package_revisions').where({ package_reference_id: packageReferenceId, revision }).first();
    return row ? toRevision(row) : null;
  },

  /** v2 revisions (not `0`) of a reference, newest first, at most 1000. */
  async listV2(db: Db, packageReferenceId: number): Promise<Revision[]> {
    const rows = await db('conan_package_revisions')
      .where({ package_reference_id: packageReferenceId })
      .whereNot({ revision: V1_REVISION })
      .orderBy('id', 'desc')
      .limit(MAX_LISTED);
    return rows.map(toRevision);
  },

  /** The v1 view: revision `0` when v1 wrote one, else the newest. */
  async forV1(db: Db, packageReferenceId: number): Promise<Revision | null> {
    const row = await db('conan_package_revisions')
      .where({ package_reference_id: packageReferenceId })
      .orderByRaw('(revision = ?) desc, id desc', [V1_REVISION])
      .first();
    return row ? toRevision(row) : null;
  },

  async countV2(db: Db, packageReferenceId: number): Promise<number> {
    const r = await db('conan_package_revisions').where({ package_reference_id: packageReferenceId }).whereNot({ revision: V1_REVISION }).count<{ count: string }[]>('id as count');
    return Number(r[0].count);
  },

  async delete(trx: Db, id: number): Promise<void> {
    await trx('conan_package_revisions').where({ id }).delete();
  },
};
