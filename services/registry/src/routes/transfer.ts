import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { canSendFile, SEND_FILE_HEADER } from '@anvil/auth';
import { ctx, HttpError } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import { FileTooLargeError } from '@anvil/storage';
import { FileNotFoundError } from '../packages/conan-finder';
import type { PackageFile } from '../packages/types';
import { markReusable } from './reusable';

/** GitLab's `400 Bad request - File is too large`; the connection closes so the rest of the body is not read. */
export function fileTooLarge(req: Request): HttpError {
  req.unpipe();
  req.resume();
  return new HttpError(400, { message: '400 Bad request - File is too large' }, { Connection: 'close' });
}

/** Refuses up front a body whose declared length is over the limit. */
export function checkDeclaredSize(req: Request, limit: number): void {
  const declared = req.get('content-length');
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit) throw fileTooLarge(req);
}

/** Conan 1's deduplication probe: an empty PUT with `X-Checksum-Deploy: true`; answered without storing. */
export function isDedupProbe(req: Request): boolean {
  return (req.get('x-checksum-deploy') ?? '').toLowerCase() === 'true' && req.get('content-length') === '0';
}

/** Maps a streaming failure: over the limit → 400, anything else unchanged. */
export function uploadError(req: Request, e: unknown): unknown {
  return e instanceof FileTooLargeError ? fileTooLarge(req) : e;
}

function disposition(fileName: string): string {
  const plain = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Streams a stored file: octet-stream, its exact length, and an attachment disposition. When the
 * gateway serves files itself, a GET is answered with the headers and the storage key instead;
 * `reusable` (the path names this file for good: a v2 revision address) lets the gateway give that
 * answer again to the same caller while the project's packages are not written.
 */
export async function sendFile(req: Request, res: Response, storage: Storage, file: PackageFile, reusable = false): Promise<void> {
  if (req.method === 'GET' && canSendFile(ctx(req))) {
    res.status(200);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Disposition', disposition(file.fileName));
    res.setHeader(SEND_FILE_HEADER, file.storageKey);
    if (reusable) markReusable(res);
    res.end();
    return;
  }
  const body = req.method === 'HEAD' ? null : await storage.get(file.storageKey);
  if (req.method !== 'HEAD' && !body) throw new FileNotFoundError();
  res.status(200);
  res.setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', disposition(file.fileName));
  if (!body) {
    res.end();
    return;
  }
  try {
    await pipeline(body, res);
  } catch {
    res.destroy();
  }
}
