import fs from 'node:fs';
import type { Writable } from 'node:stream';

/** Stream buffer size for local files: 1 MiB chunks keep syscalls few on large objects. */
export const LOCAL_CHUNK_SIZE = 1024 * 1024;

/** 1 MiB buffers the pooled sender reuses across sends (at most this many are kept). */
const SEND_POOL_MAX = 8;
/** Buffers one send has in flight at most: one being read while one is being written. */
const SEND_DEPTH = 2;
const sendPool: Buffer[] = [];

/** An opened stored file: its size, and a sender that writes it into a destination stream. */
export interface OpenedFile {
  size: number;
  /**
   * Writes the whole file into `dest` and ends it. Reads go into at most two 1 MiB buffers that are
   * reused once `dest` has written them (no allocation per chunk, so memory stays flat whatever
   * the file's size). Rejects when `dest` closes or fails first. Closes the file either way.
   */
  sendTo(dest: Writable): Promise<void>;
  /** Closes the file without sending it. */
  close(): Promise<void>;
}

function readAt(fd: number, buf: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => fs.read(fd, buf, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))));
}

/** Closes a descriptor through the thread pool. */
export function closeFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.close(fd, (err) => (err ? reject(err) : resolve())));
}

/** Sends `size` bytes of `fd` into `dest` through at most two pooled 1 MiB buffers, then ends it (see OpenedFile.sendTo). */
export async function sendPooled(fd: number, size: number, dest: Writable): Promise<void> {
  const free: Buffer[] = [];
  let owned = 0;
  let waiting: (() => void) | null = null;
  let failure: Error | null = null;
  const wake = () => {
    const w = waiting;
    waiting = null;
    w?.();
  };
  const onClose = () => {
    if (!dest.writableFinished) failure ??= new Error('destination closed before the file was sent');
    wake();
  };
  const onError = (e: Error) => {
    failure ??= e;
    wake();
  };
  dest.on('close', onClose);
  dest.on('error', onError);
  dest.on('drain', wake);
  try {
    let pos = 0;
    while (pos < size) {
      // a destination closed before this began (its 'close' has been and gone) is not read for
      if (dest.destroyed) failure ??= new Error('destination closed before the file was sent');
      if (failure) throw failure;
      let buf = free.pop();
      if (!buf && owned < SEND_DEPTH) {
        buf = size - pos >= LOCAL_CHUNK_SIZE ? (sendPool.pop() ?? Buffer.allocUnsafeSlow(LOCAL_CHUNK_SIZE)) : Buffer.allocUnsafe(size - pos);
        owned++;
      }
      if (!buf || dest.writableNeedDrain) {
        if (buf) free.push(buf);
        await new Promise<void>((r) => (waiting = r));
        continue;
      }
      const bytesRead = await readAt(fd, buf, Math.min(buf.length, size - pos), pos);
      if (bytesRead === 0) throw new Error('the file is shorter than its size');
      pos += bytesRead;
      const chunk = buf;
      dest.write(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead), () => {
        free.push(chunk);
        wake();
      });
    }
    if (failure) throw failure;
    await new Promise<void>((resolve, reject) => {
      dest.end(() => (failure ? reject(failure) : resolve()));
      waiting = () => failure && reject(failure);
    });
  } finally {
    dest.off('close', onClose);
    dest.off('error', onError);
    dest.off('drain', wake);
    await closeFd(fd).catch(() => undefined);
    for (const b of free) if (b.length === LOCAL_CHUNK_SIZE && sendPool.length < SEND_POOL_MAX) sendPool.push(b);
  }
}

/** Largest file `open` reads at once, synchronously. */
export const SMALL_READ = 64 * 1024;

/** Reads `size` bytes of `fd` from its start, synchronously. */
export function readWhole(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  for (let pos = 0; pos < size; ) {
    const n = fs.readSync(fd, buf, pos, size - pos, pos);
    if (n === 0) throw new Error('the file is shorter than its size');
    pos += n;
  }
  return buf;
}

/** Writes `bytes` into `dest` and ends it; rejects when `dest` closes or fails first. */
export function sendBytes(bytes: Buffer, dest: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const onClose = () => {
      if (!dest.writableFinished) reject(new Error('destination closed before the file was sent'));
    };
    dest.once('close', onClose);
    dest.once('error', reject);
    dest.end(bytes, () => {
      dest.off('close', onClose);
      dest.off('error', reject);
      resolve();
    });
  });
}
