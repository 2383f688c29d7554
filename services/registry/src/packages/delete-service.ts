import type { Knex } from '@anvil/db';
import { emit } from '@anvil/events';
import { UnprocessableError } from '@anvil/http';
import { PRODUCER, RegistryEvents } from '../events/contracts';
import type { RegistryDeps } from './deps';
import { fileStore } from './file-store';
import { packageStore } from './package-store';
import { MAX_LISTED, packageReferenceStore, packageRevisionStore, recipeRevisionStore } from './revision-store';
import { projectStoragePrefix } from './storage-keys';
import type { Package, PackageReference, Revision } from './types';
import { packageEvent } from './upload-service';

/**
 * Deletes stored objects after their rows are gone, before the answer as far as readers can tell (their
 * space is freed in the background); a failure only leaves an orphan object, logged.
 */
async function deleteObjects(deps: RegistryDeps, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 16) {
    await Promise.all(keys.slice(i, i + 16).map((k) => deps.storage.retire(k).catch((e: unknown) => deps.log.warn('could not delete a stored file', { key: k, err: String(e) }))));
  }
}

function refuseTooMany(keys: string[]): void {
  if (keys.length > MAX_LISTED) throw new UnprocessableError(`Cannot delete more than ${MAX_LISTED} files`);
}

async function removePackage(trx: Knex.Transaction, pkg: Package): Promise<string[]> {
  const keys = await fileStore.keys(trx, { packageId: pkg.id });
  await packageStore.delete(trx, pkg.id);
  await emit(trx, PRODUCER, RegistryEvents.packageDeleted, packageEvent(pkg));
  return keys;
}

/** Deletes a whole package: every revision, reference and file (v1 `DELETE` of a recipe). */
export async function deletePackage(deps: RegistryDeps, pkg: Package): Promise<void> {
  const keys = await deps.db.transaction((trx) => removePackage(trx, pkg));
  await deleteObjects(deps, keys);
}

/** Deletes a recipe revision; when it is the package's only (v2) revision the package goes with it. */
export async function deleteRecipeRevision(deps: RegistryDeps, pkg: Package, rrev: Revision): Promise<void> {
  const keys = await deps.db.transaction(async (trx) => {
    if ((await recipeRevisionStore.countV2(trx, pkg.id)) <= 1) {
      refuseTooMany(await fileStore.keys(trx, { packageId: pkg.id }));
      return removePackage(trx, pkg);
    }
    const revisionKeys = await fileStore.keys(trx, { recipeRevisionId: rrev.id });
    refuseTooMany(revisionKeys);
    await recipeRevisionStore.delete(trx, rrev.id);
    await packageStore.touch(trx, pkg.id);
    return revisionKeys;
  });
  await deleteObjects(deps, keys);
}

/** Deletes a package revision; when it is its reference's only (v2) revision the reference goes with it. */
export async function deletePackageRevision(deps: RegistryDeps, pkg: Package, pref: PackageReference, prev: Revision): Promise<void> {
  const keys = await deps.db.transaction(async (trx) => {
    const whole = (await packageRevisionStore.countV2(trx, pref.id)) <= 1;
    const k = whole ? await fileStore.keys(trx, { packageReferenceId: pref.id }) : await fileStore.keys(trx, { packageRevisionId: prev.id });
    refuseTooMany(k);
    if (whole) await packageReferenceStore.delete(trx, pref.id);
    else await packageRevisionStore.delete(trx, prev.id);
    await packageStore.touch(trx, pkg.id);
    return k;
  });
  await deleteObjects(deps, keys);
}

/**
 * Deletes every package row of a project inside `trx` (announcing each). Its stored objects stay until
 * the caller has committed and calls `deleteProjectFiles`, so a rolled-back deletion keeps every file.
 */
export async function deleteProjectPackages(trx: Knex.Transaction, projectId: number): Promise<number> {
  const pkgs = await packageStore.listForProject(trx, projectId);
  await packageStore.deleteForProject(trx, projectId);
  for (const pkg of pkgs) await emit(trx, PRODUCER, RegistryEvents.packageDeleted, packageEvent(pkg));
  return pkgs.length;
}

/** Removes a deleted project's stored objects; only after its rows' deletion committed (idempotent). */
export async function deleteProjectFiles(deps: RegistryDeps, projectId: number): Promise<void> {
  await deps.storage.deletePrefix(projectStoragePrefix(projectId));
}
