import type { Request, Response } from 'express';
import type { ProjectScope } from '@anvil/auth';
import { ctx, NotFoundError } from '@anvil/http';
import { authorizeUpload, callerOf } from '../auth/policy';
import type { RecipeRef } from '../conan/reference';
import { toPackageFileRecord } from '../entities/package-file';
import { FileNotFoundError } from '../packages/conan-finder';
import { type FileAddress, fileLookupStore } from '../packages/file-lookup-store';
import { findOrCreatePackage, uploadFile, type UploadTarget } from '../packages/upload-service';
import type { RouteDeps } from './route-deps';
import { checkDeclaredSize, isDedupProbe, sendFile, uploadError } from './transfer';

/**
 * A file PUT (v1 or v2): Developer or 403, the declared size checked, the package found or created,
 * Conan 1's empty dedup probe answered `null` without storing, then the body streamed to storage.
 * Answers the package file record.
 */
export async function receiveFile(req: Request, res: Response, deps: RouteDeps, project: ProjectScope, ref: RecipeRef, target: UploadTarget, fileName: string): Promise<void> {
  authorizeUpload(callerOf(ctx(req)), project);
  checkDeclaredSize(req, deps.registry.maxFileSize);
  const { pkg, fileId } = await findOrCreatePackage(deps.registry.db, project.id, ref);
  if (isDedupProbe(req)) {
    res.status(200).json(null);
    return;
  }
  const file = await uploadFile(deps.registry, pkg, target, fileName, req, fileId).catch((e: unknown) => {
    throw uploadError(req, e);
  });
  res.status(200).json(toPackageFileRecord(file));
}

/**
 * A file GET: the addressed file, streamed. No package → `404 Package Not Found` (v2) or `404 Not
 * found` (v1); no such file → `404 Not found`.
 */
export async function serveFile(req: Request, res: Response, deps: RouteDeps, project: ProjectScope, ref: RecipeRef, address: FileAddress, fileName: string): Promise<void> {
  const { packageId, file } = await fileLookupStore.find(deps.registry.db, project.id, ref, address, fileName);
  if (packageId === null && address.protocol === 'v2') throw new NotFoundError('Package');
  if (!file) throw new FileNotFoundError();
  await sendFile(req, res, deps.registry.storage, file);
}
