import type { Db } from '@anvil/db';
import { HttpError, NotFoundError } from '@anvil/http';
import type { RecipeRef } from '../conan/reference';
import { fileStore, type FileSlot } from './file-store';
import { packageStore } from './package-store';
import { packageReferenceStore, packageRevisionStore, recipeRevisionStore } from './revision-store';
import type { Package, PackageFile, PackageReference, Revision } from './types';

/** GitLab's `404 Not found` (lower-case, from its RecordNotFound rescue) for a file that is not there. */
export class FileNotFoundError extends HttpError {
  constructor() {
    super(404, { message: '404 Not found' });
  }
}

/** Reads of packages, revisions and files as the v1 and v2 routes need them; 404s are GitLab's. */
export const conanFinder = {
  /** The package of `ref` in the project, or 404 Package Not Found. */
  async package(db: Db, projectId: number, ref: RecipeRef): Promise<Package> {
    const pkg = await packageStore.find(db, projectId, ref);
    if (!pkg) throw new NotFoundError('Package');
    return pkg;
  },

  /** A v2 recipe revision of the package, or 404 Revision Not Found. */
  async recipeRevision(db: Db, pkg: Package, revision: string): Promise<Revision> {
    const rrev = await recipeRevisionStore.find(db, pkg.id, revision);
    if (!rrev) throw new NotFoundError('Revision');
    return rrev;
  },

  /** The newest v2 recipe revision, or 404 Revision Not Found. */
  async latestRecipeRevision(db: Db, pkg: Package): Promise<Revision> {
    const latest = await recipeRevisionStore.latestV2(db, pkg.id);
    if (!latest) throw new NotFoundError('Revision');
    return latest;
  },

  /** The package reference under a recipe revision (null when either is missing). */
  async packageReference(db: Db, pkg: Package, recipeRevision: string, reference: string): Promise<PackageReference | null> {
    const rrev = await recipeRevisionStore.find(db, pkg.id, recipeRevision);
    return rrev ? packageReferenceStore.find(db, rrev.id, reference) : null;
  },

  /** v2 package revisions of a reference, newest first; empty when the revision or reference is unknown. */
  async packageRevisions(db: Db, pkg: Package, recipeRevision: string, reference: string): Promise<Revision[]> {
    const pref = await conanFinder.packageReference(db, pkg, recipeRevision, reference);
    return pref ? packageRevisionStore.listV2(db, pref.id) : [];
  },

  /** The file slot of a v2 package revision, or null when any level is missing. */
  async packageSlot(db: Db, pkg: Package, recipeRevision: string, reference: string, packageRevision: string): Promise<(FileSlot & { pref: PackageReference; prev: Revision }) | null> {
    const pref = await conanFinder.packageReference(db, pkg, recipeRevision, reference);
    const prev = pref ? await packageRevisionStore.find(db, pref.id, packageRevision) : null;
    if (!pref || !prev) return null;
    return { fileType: 'package', recipeRevisionId: pref.recipeRevisionId, packageRevisionId: prev.id, pref, prev };
  },

  /** The recipe files of a v2 revision (at most 1000), or 404 Recipe files Not Found. */
  async recipeFiles(db: Db, pkg: Package, recipeRevision: string): Promise<PackageFile[]> {
    const rrev = await recipeRevisionStore.find(db, pkg.id, recipeRevision);
    const files = rrev ? await fileStore.list(db, { fileType: 'recipe', recipeRevisionId: rrev.id }) : [];
    if (!files.length) throw new NotFoundError('Recipe files');
    return files;
  },

  /** The files of a v2 package revision (at most 1000), or 404 Package files Not Found. */
  async packageFiles(db: Db, pkg: Package, recipeRevision: string, reference: string, packageRevision: string): Promise<PackageFile[]> {
    const slot = await conanFinder.packageSlot(db, pkg, recipeRevision, reference, packageRevision);
    const files = slot ? await fileStore.list(db, slot) : [];
    if (!files.length) throw new NotFoundError('Package files');
    return files;
  },

  /** The recipe slot the v1 protocol sees: revision `0` when v1 wrote one, else the newest. */
  async v1RecipeSlot(db: Db, pkg: Package | null): Promise<FileSlot | null> {
    const rrev = pkg ? await recipeRevisionStore.forV1(db, pkg.id) : null;
    return rrev ? { fileType: 'recipe', recipeRevisionId: rrev.id } : null;
  },

  /** The package slot the v1 protocol sees for a reference, under the v1 recipe revision. */
  async v1PackageSlot(db: Db, pkg: Package | null, reference: string): Promise<FileSlot | null> {
    const rslot = await conanFinder.v1RecipeSlot(db, pkg);
    const pref = rslot ? await packageReferenceStore.find(db, rslot.recipeRevisionId, reference) : null;
    const prev = pref ? await packageRevisionStore.forV1(db, pref.id) : null;
    return rslot && prev ? { fileType: 'package', recipeRevisionId: rslot.recipeRevisionId, packageRevisionId: prev.id } : null;
  },

  /** The files of a slot, or none. */
  async files(db: Db, slot: FileSlot | null): Promise<PackageFile[]> {
    return slot ? fileStore.list(db, slot) : [];
  },

};
