import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type Digests, FileTooLargeError, INLINE_MD5_MAX } from './digest';
import { EarlyFlush } from './local-early-flush';
import { OffloadedMd5 } from './md5-worker';

/** A body being received into a file: its outcome, and control while it flows. */
export interface Receipt {
  /**
   * Resolves with the size and digests once the whole body is in the file; rejects — the file
   * removed — with FileTooLargeError past the limit, with the body's failure or abort (or its end
   * short of the declared length), with the disk's failure, or when cancelled.
   */
  done: Promise<Digests>;
  /** Lowers (or sets) the limit while bytes flow: fails at once when more already arrived. */
  limit(n: number): void;
  /** Stops reading and removes what was written. */
  cancel(): void;
}

/** Creates `file` exclusively (its directory when missing) and returns its descriptor: a metadata call of tens of µs. */
function openNew(file: string): number {
  try {
    return fs.openSync(file, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return fs.openSync(file, 'wx');
  }
}

function writeAll(fd: number, chunks: Buffer[]): void {
  let pos = 0;
  for (const c of chunks) {
    for (let off = 0; off < c.length; ) off += fs.writeSync(fd, c, off, c.length - off, pos + off);
    pos += c.length;
  }
}

/**
 * Receives `body` into the new file `file` (which must not exist) while measuring size, MD5, SHA-1
 * and SHA-256, reading the body's chunks as they come (no stream pipeline in between).
 *
 * A body declared at most INLINE_MD5_MAX bytes is hashed on this thread and written with three
 * system calls once complete. A larger one (or one of unknown size) is hashed with SHA-1 and SHA-256
 * here while one worker thread hashes it with MD5 in 256 KiB batches and another writes each hashed
 * batch at its offset (`md5-worker.ts`); reading pauses while they are a few batches behind, so memory
 * stays bounded whatever the size.
 *
 * With `flushEvery`, such a body's bytes are also flushed to the disk as they arrive (see
 * `EarlyFlush`); `done` then waits for the last flush started, and fails when any failed.
 */
export function receiveFile(file: string, body: Readable, opts: { limit: number; expectedSize: number | null; flushEvery?: number }): Receipt {
  const small = opts.expectedSize !== null && opts.expectedSize <= INLINE_MD5_MAX;
  const sha1 = createHash('sha1');
  const sha256 = createHash('sha256');
  const md5Inline: Hash | null = small ? createHash('md5') : null;
  const held: Buffer[] = [];
  let limit = opts.limit;
  let bytes = 0;
  let finished = false;
  let fd: number | null = null;
  /** Whether this receipt created the file (only then is it removed on failure). */
  let created = false;
  let md5: OffloadedMd5 | null = null;
  let early: EarlyFlush | null = null;
  let settle!: { resolve: (d: Digests) => void; reject: (e: unknown) => void };
  const done = new Promise<Digests>((resolve, reject) => (settle = { resolve, reject }));

  const detach = () => {
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', fail);
    body.off('close', onClose);
  };
  const closeFile = () => {
    if (fd === null) return;
    const f = fd;
    fd = null;
    fs.closeSync(f);
  };
  function fail(e: unknown): void {
    if (finished) return;
    finished = true;
    detach();
    body.pause();
    // the workers may still hold batches for the descriptor: it is closed only once they are done
    void Promise.all([md5?.abandon(), early?.settled()])
      .then(() => {
        closeFile();
        if (created) fs.rmSync(file, { force: true });
      })
      .catch(() => undefined)
      .then(() => settle.reject(e));
  }
  function onData(chunk: Buffer): void {
    bytes += chunk.length;
    if (bytes > limit) return fail(new FileTooLargeError());
    sha1.update(chunk);
    sha256.update(chunk);
    if (md5Inline) {
      md5Inline.update(chunk);
      held.push(chunk);
      return;
    }
    early?.received(bytes);
    const pending = md5!.update(chunk);
    if (md5!.failed) return fail(md5!.failed);
    if (!pending) return;
    body.pause();
    void pending.then(() => {
      if (finished) return;
      if (md5!.failed) fail(md5!.failed);
      else body.resume();
    });
  }
  function onEnd(): void {
    if (finished) return;
    // a body that ends short of its declared length was cut, whatever ended it: never stored as whole
    if (opts.expectedSize !== null && bytes < opts.expectedSize) return fail(new Error(`request body ended after ${bytes} of ${opts.expectedSize} bytes`));
    detach();
    let md5Hex: Promise<string>;
    try {
      if (md5Inline) {
        fd = openNew(file);
        created = true;
        writeAll(fd, held);
        md5Hex = Promise.resolve(md5Inline.digest('hex'));
      } else {
        // with early flushes, the body counts as received only once the last one is done and none failed
        md5Hex = md5!.digest().then(async (hex) => {
          await early?.outcome();
          return hex;
        });
      }
    } catch (e) {
      return fail(e);
    }
    md5Hex.then(
      (hex) => {
        if (finished) return;
        finished = true;
        closeFile();
        settle.resolve({ size: bytes, md5: hex, sha1: sha1.digest('hex'), sha256: sha256.digest('hex') });
      },
      (e: unknown) => {
        // fail() waits for nothing more: the workers answered (or are stopped), and no early flush runs
        md5 = null;
        fail(e);
      },
    );
  }
  function onClose(): void {
    if (!body.readableEnded) fail(new Error('request body aborted'));
  }

  try {
    if (!small) {
      fd = openNew(file);
      created = true;
      md5 = new OffloadedMd5(fd);
      if (opts.flushEvery) early = new EarlyFlush(fd, opts.flushEvery, (e) => fail(e));
    }
  } catch (e) {
    body.pause();
    settle.reject(e);
    return { done, limit: () => undefined, cancel: () => undefined };
  }
  body.on('data', onData);
  body.on('end', onEnd);
  body.on('error', fail);
  body.on('close', onClose);
  // cut before anyone listened (a client gone while its request was being authenticated): its
  // 'close' has been and gone
  if (body.destroyed && !body.readableEnded) fail(new Error('request body aborted'));
  return {
    done,
    limit(n) {
      limit = n;
      if (bytes > n) fail(new FileTooLargeError());
    },
    cancel: () => fail(new Error('cancelled')),
  };
}
