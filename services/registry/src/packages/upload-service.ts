import type { Readable } from 'node:stream';
import type { Knex } from '@anvil/db';
import { emit } from '@anvil/events';
import { parseConanInfo } from '../conan/conaninfo';
import type { RecipeRef } from '../conan/reference';
import { DigestStream } from '../files/digest-stream';
import { PRODUCER, type PackageEventV1, RegistryEvents } from '../events/contracts';
import type { RegistryDeps } from './deps';
import { fileStore, type NewFile } from './file-store';
import { packageStore } from './package-store';
import { packageReferenceStore, packageRevisionStore, recipeRevisionStore } from './revision-store';
import { fileStorageKey } from './storage-keys';
import type { Package, PackageFile } from './types';

/** Where an uploaded file goes: a recipe revision, or a package revision of a package reference. */
export type UploadTarget =
  | { kind: 'recipe'; recipeRevision: string }
  | { kind: 'package'; recipeRevision: string; packageReference: string; packageRevision: string };

/** How much of a conaninfo.txt is read for its metadata (GitLab keeps at most 20,000 characters of JSON). */
const CONANINFO_CAPTURE = 256 * 1024;

/** The event data of a package. */
export function packageEvent(pkg: Package): PackageEventV1 {
  return { id: pkg.id, project_id: pkg.projectId, package_type: 'conan', name: pkg.name, version: pkg.version, package_username: pkg.username, package_channel: pkg.channel };
}

/** The package of `ref`, created (and announced) when missing. */
export async function findOrCreatePackage(db: Knex, projectId: number, ref: RecipeRef): Promise<Package> {
  const existing = await packageStore.find(db, projectId, ref);
  if (existing) return existing;
  return db.transaction(async (trx) => {
    const { pkg, created } = await packageStore.findOrCreate(trx, projectId, ref);
    if (created) await emit(trx, PRODUCER, RegistryEvents.packageCreated, packageEvent(pkg));
    return pkg;
  });
}

/** Streams `body` into storage while hashing it; rejects (and leaves nothing behind) when it fails or is too large. */
async function storeBytes(deps: RegistryDeps, key: string, body: Readable, capture: number): Promise<DigestStream> {
  const digest = new DigestStream(deps.maxFileSize, capture);
  // Bytes flow before the storage driver attaches its pipeline; its failure surfaces through that pipeline.
  digest.on('error', () => undefined);
  const abort = () => {
    if (!body.readableEnded) digest.destroy(new Error('request body aborted'));
  };
  body.once('error', (e) => digest.destroy(e));
  body.once('close', abort);
  body.pipe(digest);
  try {
    await deps.storage.put(key, digest);
    return digest;
  } catch (e) {
    body.unpipe(digest);
    await deps.storage.delete(key).catch(() => undefined);
    throw e;
  } finally {
    body.off('close', abort);
  }
}

/**
 * Stores one file of `pkg` under `target` (creating the revisions and package reference on the way),
 * replacing a file of the same name there. Size and checksums come from the bytes received. A
 * `conaninfo.txt` also sets its package reference's metadata (left empty when it does not parse).
 */
export async function uploadFile(deps: RegistryDeps, pkg: Package, target: UploadTarget, fileName: string, body: Readable): Promise<PackageFile> {
  const id = await fileStore.reserveId(deps.db);
  const key = fileStorageKey(pkg.projectId, pkg.id, id, fileName);
  const isInfo = target.kind === 'package' && fileName === 'conaninfo.txt';
  const digest = await storeBytes(deps, key, body, isInfo ? CONANINFO_CAPTURE : 0);
  const d = digest.digests();
  let result: { file: PackageFile; replacedKey: string | null };
  try {
    result = await deps.db.transaction(async (trx) => {
      const rrev = await recipeRevisionStore.ensure(trx, pkg.id, target.recipeRevision);
      const file: NewFile = { id, packageId: pkg.id, projectId: pkg.projectId, fileType: 'recipe', recipeRevisionId: rrev.id, packageReferenceId: null, packageRevisionId: null, fileName, storageKey: key, fileStore: deps.fileStore, size: d.size, md5: d.md5, sha1: d.sha1, sha256: d.sha256 };
      if (target.kind === 'package') {
        const pref = await packageReferenceStore.ensure(trx, pkg.id, rrev.id, target.packageReference);
        const prev = await packageRevisionStore.ensure(trx, pref.id, target.packageRevision);
        Object.assign(file, { fileType: 'package', packageReferenceId: pref.id, packageRevisionId: prev.id });
        if (isInfo) await storeInfo(deps, trx, pref.id, digest);
      }
      await packageStore.touch(trx, pkg.id);
      return fileStore.replace(trx, file);
    });
  } catch (e) {
    await deps.storage.delete(key).catch(() => undefined);
    throw e;
  }
  if (result.replacedKey) await deps.storage.delete(result.replacedKey).catch((e: unknown) => deps.log.warn('could not delete a replaced file', { key: result.replacedKey, err: String(e) }));
  return result.file;
}

async function storeInfo(deps: RegistryDeps, trx: Knex.Transaction, packageReferenceId: number, digest: DigestStream): Promise<void> {
  const { data, complete } = digest.captured();
  const parsed = complete ? parseConanInfo(data.toString('utf8')) : { ok: false as const, error: 'conaninfo.txt file too large' };
  if (parsed.ok) await packageReferenceStore.setInfo(trx, packageReferenceId, parsed.info);
  else deps.log.warn('conaninfo.txt not parsed', { error: parsed.error, package_reference_id: packageReferenceId });
}
