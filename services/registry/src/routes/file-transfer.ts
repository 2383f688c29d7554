import type { Request, Response } from 'express';
import { isUploadKey, type ProjectScope, type TransferContext, transferOf } from '@anvil/auth';
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

/** What a file PUT names: the project, the recipe, where in it the file goes, and the file's name. */
export interface FileUpload {
  project: ProjectScope;
  ref: RecipeRef;
  target: UploadTarget;
  fileName: string;
}

/**
 * A file PUT (v1 or v2): Developer or 403, then the handler of its phase. Directly, the body comes
 * with the request (`receiveStream`). Through the gateway it comes without it: for a large body
 * first as a pre-authorisation (`preauthorizeUpload`), then, as for every body, naming the body the
 * gateway stored (`recordStoredBody`; see `TransferContext` in @anvil/auth). A package that is not
 * there yet is created only when the file is recorded, once its body is stored (as GitLab's, which
 * sees the PUT only after Workhorse has the body): an upload that fails or is abandoned leaves no
 * empty package. Answers the package file record.
 */
export async function receiveFile(req: Request, res: Response, deps: RouteDeps, upload: FileUpload): Promise<void> {
  authorizeUpload(callerOf(ctx(req)), upload.project);
  const transfer = transferOf(ctx(req));
  if (!transfer) return receiveStream(req, res, deps, upload);
  if (transfer.phase === 'authorize') return preauthorizeUpload(req, res, deps, upload, transfer);
  return recordStoredBody(req, res, deps, upload, transfer);
}

/**
 * The pre-authorisation of a large body: refused when its declared size is over the limit, else
 * answered with the limit and, for a package that exists, its id and a file id reserved now, while
 * the body is still on its way.
 */
async function preauthorizeUpload(req: Request, res: Response, deps: RouteDeps, { project, ref }: FileUpload, transfer: Extract<TransferContext, { phase: 'authorize' }>): Promise<void> {
  const limit = deps.registry.maxFileSize;
  if (transfer.declared !== null && transfer.declared > limit) throw fileTooLarge(req);
  const found = await packageStore.findReservingFileId(deps.registry.db, project.id, ref);
  res.status(200).json({ MaximumSize: limit, ...(found && { Reservation: { package_id: found.pkg.id, file_id: found.fileId } }) });
}

/**
 * A body that comes with the request: the declared size checked, Conan 1's empty dedup probe
 * answered `null` without storing (its package found or created first, as GitLab does), else the
 * body streamed to storage and recorded.
 */
async function receiveStream(req: Request, res: Response, deps: RouteDeps, { project, ref, target, fileName }: FileUpload): Promise<void> {
  checkDeclaredSize(req, deps.registry.maxFileSize);
  if (isDedupProbe(req)) {
    await findOrCreatePackage(deps.registry.db, project.id, ref);
    res.status(200).json(null);
    return;
  }
  await answerRecorded(req, res, uploadFile(deps.registry, project.id, ref, target, fileName, req));
}

/**
 * A body the gateway stored, moved into place and recorded: in the package and under the file id
 * reserved at the pre-authorisation, or in the package the statement that records the file finds
 * (or creates). A key outside the upload area → `400 upload is invalid`.
 */
async function recordStoredBody(req: Request, res: Response, deps: RouteDeps, { project, ref, target, fileName }: FileUpload, transfer: Extract<TransferContext, { phase: 'stored' }>): Promise<void> {
  if (!isUploadKey(transfer.upload.key)) throw new BadRequestError('upload is invalid');
  const { pkg, fileId }: { pkg: UploadPackage; fileId?: number } = transfer.reservation ? reservedPackage(project.id, transfer.reservation) : { pkg: { projectId: project.id, ref } };
  await answerRecorded(req, res, recordStoredUpload(deps.registry, pkg, target, fileName, transfer.upload, fileId));
}

/** Answers the recorded file's record; a package deleted while the file was on its way is `404 Package Not Found`. */
async function answerRecorded(req: Request, res: Response, recorded: Promise<PackageFile>): Promise<void> {
  const file = await recorded.catch((e: unknown) => {
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
