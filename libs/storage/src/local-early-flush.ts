import fs from 'node:fs';

/**
 * How many bytes a body receives between two of its early flushes. Smaller steps measured the same
 * at 100 MB; at this one a body of a few MiB is not flushed early at all, and its single flush stays
 * where it was (1 MB uploads took no less time with flushes every 256 KiB).
 */
export const EARLY_FLUSH_EVERY = 4 * 1024 * 1024;

/**
 * Flushes a file's bytes to the disk while it is still being written (`fdatasync` on libuv's pool, at
 * most one at a time), so the flush that makes it durable later finds only its tail left. Without
 * it, a large body's pages stay dirty until that flush (or the kernel's write-back throttles the
 * writer) and the whole of it waits for the disk at the end.
 *
 * An early flush does not make the file durable: the bytes written after the last one are not
 * flushed, nor is the directory entry; the owner of the file still flushes it once complete.
 *
 * A failed flush fails the file (`onError` at once, and `outcome`): Linux reports a write-back error
 * once, to the descriptors open when it happened or, if none has reported it yet, to the next one
 * opened. Once a flush here has reported it, the later flush through another descriptor would
 * succeed, so the error must stop the file here.
 */
export class EarlyFlush {
  private flushedAt = 0;
  private running: Promise<void> | null = null;
  private error: unknown = null;

  constructor(
    private readonly fd: number,
    private readonly every: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** `bytes` have been received in all: starts a flush when `every` more came since the last one started and none runs. */
  received(bytes: number): void {
    if (this.running || this.error !== null || bytes - this.flushedAt < this.every) return;
    this.flushedAt = bytes;
    this.running = new Promise((resolve) =>
      fs.fdatasync(this.fd, (e) => {
        this.running = null;
        if (e && this.error === null) {
          this.error = e;
          this.onError(e);
        }
        resolve();
      }),
    );
  }

  /** Resolves once no flush runs (the descriptor may then be closed). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Resolves once no flush runs, rejecting with the failure of any of them. */
  async outcome(): Promise<void> {
    await this.settled();
    if (this.error !== null) throw this.error;
  }
}
