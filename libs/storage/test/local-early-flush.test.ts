import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EarlyFlush } from '../src/local-early-flush';

/** A descriptor `fdatasync` refuses (EINVAL): the read end of a pipe, from a FIFO opened read-write. */
function refusing(dir: string): number {
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  return fs.openSync(fifo, 'r+');
}

let dir: string;
const fds: number[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-early-'));
});
afterEach(() => {
  while (fds.length) fs.closeSync(fds.pop()!);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('EarlyFlush', () => {
  it('flushing a regular file step by step reports no error, and its outcome succeeds', async () => {
    const fd = fs.openSync(path.join(dir, 'f'), 'w');
    fds.push(fd);
    const errors: unknown[] = [];
    const early = new EarlyFlush(fd, 1000, (e) => errors.push(e));
    for (let n = 1; n <= 10; n++) {
      fs.writeSync(fd, Buffer.alloc(500, n));
      early.received(n * 500);
      await early.settled();
    }
    await expect(early.outcome()).resolves.toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('starts no flush before a step of bytes has arrived', async () => {
    const fd = refusing(dir);
    fds.push(fd);
    const errors: unknown[] = [];
    const early = new EarlyFlush(fd, 1000, (e) => errors.push(e));
    early.received(999);
    await expect(early.outcome()).resolves.toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('reports a failed flush once, at once, and its outcome rejects with it; no flush starts after it', async () => {
    const fd = refusing(dir);
    fds.push(fd);
    const errors: NodeJS.ErrnoException[] = [];
    const early = new EarlyFlush(fd, 1000, (e) => errors.push(e as NodeJS.ErrnoException));
    early.received(1000);
    await early.settled();
    expect(errors.map((e) => e.code)).toEqual(['EINVAL']);
    early.received(5000);
    await expect(early.outcome()).rejects.toMatchObject({ code: 'EINVAL' });
    expect(errors).toHaveLength(1);
  });

  it('lets its outcome wait for a flush still running', async () => {
    const fd = refusing(dir);
    fds.push(fd);
    const early = new EarlyFlush(fd, 1, () => undefined);
    early.received(1);
    // asked at once, while the flush is on libuv's pool: the failure still counts
    await expect(early.outcome()).rejects.toMatchObject({ code: 'EINVAL' });
  });
});
