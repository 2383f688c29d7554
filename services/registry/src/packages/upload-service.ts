import type { Readable } from 'node:stream';
import type { StoredUpload, UploadReservation } from '@anvil/auth';
import type { Knex } from '@anvil/db';
import { emit } from '@anvil/events';
import { type Digests, DigestStream, feedDigest, FileTooLargeError } from '@anvil/storage';
import { type ConanInfo, parseConanInfo } from '../conan/conaninfo';
import type { RecipeRef } from '../conan/reference';
import { PRODUCER, type PackageEventV1, RegistryEvents } from '../events/contracts';
import type { RegistryDeps } from './deps';
import { type FileWrite, fileWriteStore } from './file-write-store';
import { packageStore } from './package-store';
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
  return db.transaction(async (trx) => {
    const { pkg, created } = await packageStore.findOrCreate(trx, projectId, ref);
    if (created) await emit(trx, PRODUCER, RegistryEvents.packageCreated, packageEvent(pkg));
    return pkg;
  });
}

/** Streams `body` into storage while hashing it; rejects (and leaves nothing behind) when it fails or is too large. */
async function storeBytes(deps: RegistryDeps, key: string, body: Readable, capture: number): Promise<DigestStream> {
  const digest = new DigestStream(deps.maxFileSize, capture);
  const detach = feedDigest(body, digest);
  try {
    await deps.storage.put(key, digest);
  } catch (e) {
    detach();
    await deps.storage.delete(key).catch(() => undefined);
    throw e;
  }
  detach();
  return digest;
}

/**
 * Stores one file of the package of `ref` under `target`, replacing a file of the same name there.
 * Once the bytes are stored, the file is recorded by the statement that finds the package by
 * reference (creating the package, revisions and package reference on the way), as for a body the
 * gateway stored. Size and checksums come from the bytes received. A `conaninfo.txt` also sets its
 * package reference's metadata (left as it was when it does not parse).
 */
export async function uploadFile(deps: RegistryDeps, projectId: number, ref: RecipeRef, target: UploadTarget, fileName: string, body: Readable): Promise<PackageFile> {
  const key = fileStorageKey(projectId);
  const isInfo = isConanInfo(target, fileName);
  const digest = await storeBytes(deps, key, body, isInfo ? CONANINFO_CAPTURE : 0);
  const info = isInfo ? parsedInfo(deps, digest.captured()) : undefined;
  return recordFile(deps, { projectId, ref }, target, fileName, undefined, key, await digest.digests(), info);
}

/** The package an upload goes to: found or reserved already (by id), or only named (by reference). */
export type UploadPackage = { projectId: number; id: number } | { projectId: number; ref: RecipeRef };

/**
 * The same for a body the gateway already stored under `upload.key` with its digests (an accelerated
 * upload): the object is moved into place instead of streamed. Its package may be named by reference
 * only: the file is then recorded in the same statement that finds the package (no lookup first),
 * and the package is created (and announced) only when that finds none. Whatever fails, the uploaded
 * object does not stay behind.
 */
export async function recordStoredUpload(deps: RegistryDeps, pkg: UploadPackage, target: UploadTarget, fileName: string, upload: StoredUpload, reservedId?: number): Promise<PackageFile> {
  let key: string | null = null;
  try {
    if (upload.size > deps.maxFileSize) throw new FileTooLargeError();
    const info = isConanInfo(target, fileName) ? parsedInfo(deps, await readHead(deps, upload.key, CONANINFO_CAPTURE)) : undefined;
    const dest = fileStorageKey(pkg.projectId);
    await deps.storage.move(upload.key, dest).catch(async (e: unknown) => {
      // the rename may have happened before the failure (a flush the disk refused): nothing is left at dest either
      await deps.storage.delete(dest).catch(() => undefined);
      throw e;
    });
    key = dest;
    return await recordFile(deps, pkg, target, fileName, reservedId, key, upload, info);
  } finally {
    if (key === null) await deps.storage.delete(upload.key).catch(() => undefined);
  }
}

function isConanInfo(target: UploadTarget, fileName: string): boolean {
  return target.kind === 'package' && fileName === 'conaninfo.txt';
}

/** The first `limit` bytes of a stored object, and whether that was all of it. */
async function readHead(deps: RegistryDeps, key: string, limit: number): Promise<{ data: Buffer; complete: boolean }> {
  const obj = await deps.storage.read(key);
  if (!obj) throw new Error('the uploaded object is missing');
  if (obj.size > limit) {
    obj.body.destroy();
    return { data: Buffer.alloc(0), complete: false };
  }
  const parts: Buffer[] = [];
  for await (const c of obj.body) parts.push(c as Buffer);
  return { data: Buffer.concat(parts), complete: true };
}

/** The package (or the recipe revision, twice) was deleted while a file was being recorded. */
export class FileSlotGoneError extends Error {
  constructor() {
    super('the package or recipe revision was deleted while a file was being recorded');
    this.name = 'FileSlotGoneError';
  }
}

/**
 * The package and file id an upload's pre-authorisation reserved, for recording what the gateway
 * stored (`recordStoredUpload` with them).
 */
export function reservedPackage(projectId: number, r: UploadReservation): { pkg: Pick<Package, 'id' | 'projectId'>; fileId: number } {
  return { pkg: { id: r.package_id, projectId }, fileId: r.file_id };
}

/**
 * Records a stored object as the file; on failure the object is deleted. A package named by reference
 * that is not there is created, and the file recorded in it.
 */
async function recordFile(deps: RegistryDeps, pkg: UploadPackage, target: UploadTarget, fileName: string, id: number | undefined, key: string, d: Digests, info: ConanInfo | undefined): Promise<PackageFile> {
  const write: FileWrite = {
    id,
    package: 'id' in pkg ? { id: pkg.id } : { ref: pkg.ref },
    projectId: pkg.projectId,
    fileType: target.kind,
    recipeRevision: target.recipeRevision,
    packageReference: target.kind === 'package' ? target.packageReference : undefined,
    packageRevision: target.kind === 'package' ? target.packageRevision : undefined,
    info,
    fileName,
    storageKey: key,
    fileStore: deps.fileStore,
    size: d.size,
    md5: d.md5,
    sha1: d.sha1,
    sha256: d.sha256,
  };
  let result: Awaited<ReturnType<typeof fileWriteStore.record>> = null;
  try {
    if ('ref' in pkg) {
      result = await fileWriteStore.record(deps.db, write);
      if (!result) {
        // no such package yet (or a delete raced): create it, then record into it by id
        const created = await findOrCreatePackage(deps.db, pkg.projectId, pkg.ref);
        write.package = { id: created.id };
      }
    }
    result ??= (await fileWriteStore.record(deps.db, write)) ?? (await fileWriteStore.record(deps.db, write));
    if (!result) throw new FileSlotGoneError();
  } catch (e) {
    await deps.storage.delete(key).catch(() => undefined);
    throw e;
  }
  const replaced = result.replacedKey;
  // Gone for readers before the answer (a gateway that kept an answer naming it finds nothing and
  // asks again); its space is freed in the background.
  if (replaced) await deps.storage.retire(replaced).catch((e: unknown) => deps.log.warn('could not delete a replaced file', { key: replaced, err: String(e) }));
  return result.file;
}

function parsedInfo(deps: RegistryDeps, { data, complete }: { data: Buffer; complete: boolean }): ConanInfo | undefined {
  const parsed = complete ? parseConanInfo(data.toString('utf8')) : { ok: false as const, error: 'conaninfo.txt file too large' };
  if (parsed.ok) return parsed.info;
  deps.log.warn('conaninfo.txt not parsed', { error: parsed.error });
  return undefined;
}
