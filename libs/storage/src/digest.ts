import { createHash, type Hash } from 'node:crypto';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { OffloadedMd5 } from './md5-worker';

/** Stream buffer size for file bodies: 1 MiB chunks (Node's 64 KiB default halves throughput). */
export const STREAM_BUFFER = 1024 * 1024;

/** What a finished stream measured: the bytes that passed and their digests (hex). */
export interface Digests {
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
}

/** Largest declared body whose MD5 is computed on the calling thread as bytes arrive. */
export const INLINE_MD5_MAX = 256 * 1024;

interface Md5 {
  update(chunk: Buffer): Promise<void> | void;
  digest(): Promise<string>;
  abandon(): void;
}

class InlineMd5 implements Md5 {
  private readonly hash = createHash('md5');
  update(chunk: Buffer): void {
    this.hash.update(chunk);
  }
  digest(): Promise<string> {
    return Promise.resolve(this.hash.digest('hex'));
  }
  abandon(): void {}
}

/** Thrown into the pipeline when more than the limit arrived. */
export class FileTooLargeError extends Error {
  constructor() {
    super('File is too large');
    this.name = 'FileTooLargeError';
  }
}

/**
 * A pass-through that counts bytes, computes MD5 (on a worker thread for large bodies), SHA-1 and
 * SHA-256 of everything that passes, fails with FileTooLargeError as soon as more than `limit` bytes arrived, and optionally keeps the first
 * `capture` bytes (for small metadata files such as conaninfo.txt).
 */
export class DigestStream extends Transform {
  private readonly hashes: [Hash, Hash] = [createHash('sha1'), createHash('sha256')];
  private readonly md5: Md5;
  private bytes = 0;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;

  /**
   * `expectedSize`: the body's declared length, when known. A body of at most INLINE_MD5_MAX bytes has
   * its MD5 computed chunk by chunk as it arrives (done when the last byte is); a larger or unknown
   * one on the worker thread (in parallel with SHA-1 and SHA-256, but one batch behind).
   */
  constructor(
    private limit: number,
    private readonly capture = 0,
    expectedSize: number | null = null,
  ) {
    super({ highWaterMark: STREAM_BUFFER, writableHighWaterMark: STREAM_BUFFER, readableHighWaterMark: STREAM_BUFFER });
    this.md5 = expectedSize !== null && expectedSize <= INLINE_MD5_MAX ? new InlineMd5() : new OffloadedMd5();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return done(new FileTooLargeError());
    const pending = this.md5.update(chunk);
    for (const h of this.hashes) h.update(chunk);
    if (this.keptBytes < this.capture) {
      const part = chunk.subarray(0, this.capture - this.keptBytes);
      this.kept.push(Buffer.from(part));
      this.keptBytes += part.length;
    }
    if (pending) pending.then(() => done(null, chunk));
    else done(null, chunk);
  }

  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    if (err) this.md5.abandon();
    cb(err);
  }

  /**
   * Lowers (or sets) the limit while bytes flow, e.g. once a size limit becomes known after the body
   * started: fails the stream at once when more than `limit` bytes already passed.
   */
  setLimit(limit: number): void {
    this.limit = limit;
    if (this.bytes > limit) this.destroy(new FileTooLargeError());
  }

  /** The measurements; call once, after the stream finished. */
  async digests(): Promise<Digests> {
    const [sha1, sha256] = this.hashes.map((h) => h.digest('hex'));
    return { size: this.bytes, md5: await this.md5.digest(), sha1, sha256 };
  }

  /** The first `capture` bytes, or fewer when the body was shorter; `complete` says whether that was all of it. */
  captured(): { data: Buffer; complete: boolean } {
    return { data: Buffer.concat(this.kept), complete: this.keptBytes === this.bytes };
  }
}

/**
 * Feeds `body` (a request) into `digest`. The body's failure, or its close before its end, fails the
 * digest, so whoever consumes the digest fails instead of waiting for bytes that will never come:
 * also a close that came before this call (a client gone while its request was still being
 * handled). Returns `detach`, which lets go of the body once the digest is consumed or has failed.
 */
export function feedDigest(body: Readable, digest: DigestStream): () => void {
  // bytes may flow before the consumer attaches; its failure surfaces through the consumer
  digest.on('error', () => undefined);
  const onError = (e: Error) => digest.destroy(e);
  const onClose = () => {
    if (!body.readableEnded) digest.destroy(new Error('request body aborted'));
  };
  body.once('error', onError);
  body.once('close', onClose);
  body.pipe(digest);
  if (body.destroyed) onClose();
  return () => {
    body.off('error', onError);
    body.off('close', onClose);
    body.unpipe(digest);
  };
}

