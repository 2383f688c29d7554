import { randomUUID } from 'node:crypto';
import type { RequestContext } from './context';

/**
 * Accelerated file transfers, as GitLab Workhorse does them for Rails: the gateway moves the bytes of
 * large files itself, so a service never streams them through a second hop.
 *
 * - Uploads: the gateway streams the body into storage under `uploads/<uuid>` while measuring size,
 *   MD5, SHA-1 and SHA-256, and forwards the request without a body and with `transfer.phase =
 *   'stored'` naming the object and its digests; the service runs every check the request needs,
 *   then moves the object into place and records it (or refuses, and the gateway deletes it). A body
 *   larger than a few MiB, of unknown length, or sent after `100 Continue`, is pre-authorised first
 *   (`transfer.phase = 'authorize'`, no body), while it streams: the service runs the same checks
 *   with the declared size and answers `200 {"MaximumSize": n, "Reservation": …}` or its refusal,
 *   which stops the body.
 * - Downloads: the gateway marks requests it can serve files for (`send_file`); the service answers
 *   with the headers of the file and `x-anvil-send-file: <storage key>` instead of the bytes, and the
 *   gateway streams the object from storage.
 *
 * These fields travel in the signed context, so only the gateway can claim an upload was stored.
 */
export interface StoredUpload {
  /** Where the gateway stored the body: always `uploads/<uuid>`. */
  key: string;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
}

/**
 * What the service set aside when it pre-authorised an upload (its package, when that exists, and the
 * id of the file to be), answered as `Reservation` and handed back by the gateway with the stored
 * body, so that recording it does not look them up again. Absent, the record finds (or creates) the
 * package itself.
 */
export interface UploadReservation {
  package_id: number;
  file_id: number;
}

export type TransferContext = { phase: 'authorize'; declared: number | null } | { phase: 'stored'; upload: StoredUpload; reservation?: UploadReservation };

/** The context fields of accelerated transfers. */
export interface TransferFields {
  transfer?: TransferContext;
  /** The gateway serves `x-anvil-send-file` answers of this request from storage. */
  send_file?: true;
}

/** Response header naming the stored object the gateway should send instead of a body. */
export const SEND_FILE_HEADER = 'x-anvil-send-file';
/** Where the gateway stores upload bodies until a service moves them into place. */
export const UPLOADS_PREFIX = 'uploads/';

const UPLOAD_KEY = /^uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A fresh storage key for an upload body. */
export function newUploadKey(): string {
  return `${UPLOADS_PREFIX}${randomUUID()}`;
}

/** True for keys `newUploadKey` makes (and nothing else: never another object of the store). */
export function isUploadKey(key: unknown): key is string {
  return typeof key === 'string' && UPLOAD_KEY.test(key);
}

/** The transfer phase of a request, if the gateway accelerates it. */
export function transferOf(ctx: RequestContext): TransferContext | undefined {
  return (ctx as RequestContext & TransferFields).transfer;
}

/** Whether the gateway serves `x-anvil-send-file` answers for this request. */
export function canSendFile(ctx: RequestContext): boolean {
  return (ctx as RequestContext & TransferFields).send_file === true;
}
