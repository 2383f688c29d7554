import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { checkUrl, HttpError } from '@anvil/http';
import type { Storage } from '@anvil/storage';

/** GitLab's `RemoteFileValidator::ALLOWED_CONTENT_TYPES`. */
export const ALLOWED_CONTENT_TYPES = ['application/gzip', 'application/x-tar', 'application/x-gzip'];
/** GitLab's `RemoteFileValidator::FILE_SIZE_LIMIT`, used when `max_import_size` is 0. */
export const REMOTE_FILE_SIZE_LIMIT = 10 * 1024 ** 3;
/** How long the HEAD probe may take. */
export const HEAD_TIMEOUT_MS = 5_000;
/** How long the download may stall. */
export const DOWNLOAD_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

/** How a remote archive is fetched. */
export interface RemoteFileOptions {
  allowLocal: boolean;
  /** `outbound_local_requests_whitelist`: local hosts, addresses and ranges reachable even so. */
  allowlist?: string[];
  /** `max_import_size` in bytes (0: GitLab's 10 GB). */
  maxBytes: number;
}

const refuse = (message: string) => new HttpError(400, { message });

/** `number_to_human_size` for whole MB and GB figures. */
export function humanSize(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} Byte${bytes === 1 ? '' : 's'}`;
}

/**
 * One request to `raw` through the URL guard with the connection pinned to the checked address;
 * redirects are followed (at most five), each target checked again.
 */
async function guardedRequest(raw: string, method: 'HEAD' | 'GET', opts: RemoteFileOptions, timeout: number, hops = 0): Promise<http.IncomingMessage> {
  const checked = await checkUrl(raw, { allowLocal: opts.allowLocal, allowlist: opts.allowlist ?? [] });
  if (!checked.ok) throw refuse(`File url is blocked: ${checked.reason}`);
  const pinned: LookupFunction = (_host, o, cb) => {
    if ((o as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: checked.address, family: checked.family }]);
    else cb(null, checked.address, checked.family);
  };
  const client = checked.url.protocol === 'https:' ? https : http;
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = client.request(checked.url, { method, lookup: pinned, timeout, agent: false }, resolve);
    req.on('timeout', () => req.destroy(new Error('execution expired')));
    req.on('error', reject);
    req.end();
  });
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400 && res.headers.location) {
    res.resume();
    if (hops >= MAX_REDIRECTS) throw new Error('too many redirects');
    return guardedRequest(new URL(res.headers.location, checked.url).toString(), method, opts, timeout, hops + 1);
  }
  return res;
}

/** GitLab's `RemoteFile` checks on the HEAD answer: not S3, a length within bounds, an archive's content type. */
export async function probeRemoteFile(url: string, opts: RemoteFileOptions): Promise<void> {
  let res: http.IncomingMessage;
  try {
    res = await guardedRequest(url, 'HEAD', opts, HEAD_TIMEOUT_MS);
    res.resume();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw refuse(`Failed to retrive headers: ${(e as Error).message}`);
  }
  const h = res.headers;
  if (h.server === 'AmazonS3' && h['x-amz-request-id']) throw refuse('To import from AWS S3 use `projects/remote-import-s3`');
  checkMetadata(Number(h['content-length'] ?? 0), String(h['content-type'] ?? ''), opts.maxBytes);
}

/** `RemoteFileValidator`: the length and content type an archive must declare. */
export function checkMetadata(length: number, contentType: string, maxBytes: number): void {
  const limit = maxBytes > 0 ? maxBytes : REMOTE_FILE_SIZE_LIMIT;
  if (!(length > 0)) throw refuse('Content length is too small (should be at least 1 Byte)');
  if (length > limit) throw refuse(`Content length is too big (should be at most ${humanSize(limit)})`);
  if (!ALLOWED_CONTENT_TYPES.includes(contentType)) throw refuse(`Content type '${contentType}' not allowed. (Allowed: ${ALLOWED_CONTENT_TYPES.join(', ')})`);
}

/** A pass-through that fails once more than `limit` bytes went through. */
export function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > limit) cb(new Error('limit exceeded'));
      else cb(null, chunk);
    },
  });
}

/** Probes `url`, then streams its body into storage (cut past the limit); answers the stored key. */
export async function fetchRemoteArchive(storage: Storage, url: string, opts: RemoteFileOptions): Promise<string> {
  await probeRemoteFile(url, opts);
  const limit = opts.maxBytes > 0 ? opts.maxBytes : REMOTE_FILE_SIZE_LIMIT;
  let res: http.IncomingMessage;
  try {
    res = await guardedRequest(url, 'GET', opts, DOWNLOAD_TIMEOUT_MS);
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw refuse(`Failed to download the file: ${(e as Error).message}`);
  }
  if ((res.statusCode ?? 0) >= 400) {
    res.resume();
    throw refuse(`Failed to download the file: ${res.statusCode}`);
  }
  return storeLimited(storage, res, limit);
}

/** Streams `body` into a fresh key under `imports/uploads/`, refusing (and deleting) it past `limit` bytes. */
export async function storeLimited(storage: Storage, body: NodeJS.ReadableStream, limit: number): Promise<string> {
  const key = `imports/uploads/${randomUUID()}.tar.gz`;
  const counter = byteLimit(limit);
  body.on('error', (e) => counter.destroy(e as Error));
  try {
    await storage.put(key, body.pipe(counter), { fresh: true });
  } catch (e) {
    (body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    await storage.delete(key).catch(() => undefined);
    if ((e as Error).message === 'limit exceeded') throw refuse(`Content length is too big (should be at most ${humanSize(limit)})`);
    throw refuse(`Failed to download the file: ${(e as Error).message}`);
  }
  return key;
}
