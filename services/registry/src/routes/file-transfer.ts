import type { Request, Response } from 'express';
import { isUploadKey, type ProjectScope, transferOf } from '@anvil/auth';
import { BadRequestError, ctx, NotFoundError } from '@anvil/http';
import { authorizeUpload, callerOf } from '../auth/policy';
import type { RecipeRef } from '../conan/reference';
import { toPackageFileRecord } from '../entities/package-file';
import { FileNotFoundError } from '../packages/conan-finder';
import { type FileAddress, fileLookupStore } from '../packages/file-lookup-store';
import { packageStore } from '../packages/package-store';
import type { PackageFile } from '../packages/types';
import { FileSlotGoneError, findOrCreatePackage, recordStoredUpload, reservedPackage, type UploadPackage, uploadFile, type UploadTarget } from '../packages/upload-service';
import type { RouteDeps } from './route-deps';
import { checkDeclaredSize, fileTooLarge, isDedupProbe, sendFile, uploadError } from './transfer';

/**
 * A file PUT (v1 or v2): Developer or 403, the declared size checked, Conan 1's empty dedup probe
 * answered `null` without storing (its package found or created first, as GitLab does), then the
 * body streamed to storage. Answers the package file record. A package that is not there yet is
 * created only when the file is recorded, once its body is stored (as GitLab's, which sees the PUT
 * only after Workhorse has the body): an upload that fails or is abandoned leaves no empty package.
 * Through the gateway the request comes without its body, naming the body the gateway stored, which
 * is moved into place (see `TransferContext` in @anvil/auth); for a large body it comes first as a
 * pre-authorisation, answered with the size limit (and, for a package that exists, its id and a
 * file id, reserved) after the same checks.
 */
export async function receiveFile(req: Request, res: Response, deps: RouteDeps, project: ProjectScope, ref: RecipeRef, target: UploadTarget, fileName: string): Promise<void> {
  authorizeUpload(callerOf(ctx(req)), project);
  const transfer = transferOf(ctx(req));
  const limit = deps.registry.maxFileSize;
  if (transfer?.phase === 'authorize') {
    if (transfer.declared !== null && transfer.declared > limit) throw fileTooLarge(req);
    // an existing package and a file id are found now, while the body is still on its way
    const found = await packageStore.findReservingFileId(deps.registry.db, project.id, ref);
    res.status(200).json({ MaximumSize: limit, ...(found && { Reservation: { package_id: found.pkg.id, file_id: found.fileId } }) });
    return;
  }
  if (transfer?.phase !== 'stored') checkDeclaredSize(req, limit);
  if (transfer?.phase === 'stored' && !isUploadKey(transfer.upload.key)) throw new BadRequestError('upload is invalid');
  let stored: Promise<PackageFile>;
  if (transfer?.phase === 'stored') {
    // reserved at the pre-authorisation, or found (or created) by the statement that records the file
    const { pkg, fileId }: { pkg: UploadPackage; fileId?: number } = transfer.reservation ? reservedPackage(project.id, transfer.reservation) : { pkg: { projectId: project.id, ref } };
    stored = recordStoredUpload(deps.registry, pkg, target, fileName, transfer.upload, fileId);
  } else {
    if (!transfer && isDedupProbe(req)) {
      await findOrCreatePackage(deps.registry.db, project.id, ref);
      res.status(200).json(null);
      return;
    }
    stored = uploadFile(deps.registry, project.id, ref, target, fileName, req);
  }
  const file = await stored.catch((e: unknown) => {
    // deleted while the file was on its way: as for any file of a package that is not there
    if (e instanceof FileSlotGoneError) throw new NotFoundError('Package');
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
  // a v2 address names one file slot: replacing or deleting that file deletes the object named here
  await sendFile(req, res, deps.registry.storage, file, address.protocol === 'v2');
}
