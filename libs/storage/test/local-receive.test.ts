import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { FileTooLargeError, INLINE_MD5_MAX } from '../src/digest';
import { receiveFile } from '../src/local-receive';
import { OffloadedMd5, stopHasher } from '../src/md5-worker';

const hex = (alg: string, b: Buffer) => createHash(alg).update(b).digest('hex');

function body(size: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + (i >> 8)) & 0xff;
  return b;
}

function chunked(data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let off = 0, i = 0; off < data.length; i++) {
    out.push(data.subarray(off, off + sizes[i % sizes.length]));
    off += sizes[i % sizes.length];
  }
  return out;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-receive-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('receiveFile', () => {
  it.each([
    ['empty, declared', 0, [1], 0],
    ['small, declared (hashed and written on this thread)', 1000, [400], 1000],
    ['at the inline bound', INLINE_MD5_MAX, [65536], INLINE_MD5_MAX],
    ['over it, declared (the workers hash and write)', 3 * (1 << 20) + 17, [65536, 1000, 300_000], 3 * (1 << 20) + 17],
    ['of unknown size (chunked)', 700_000, [65536, 7], null],
    ['empty, of unknown size', 0, [1], null],
  ])('%s: the file holds the bytes, size and digests equal node:crypto', async (_n, size, sizes, expectedSize) => {
    const data = body(size);
    const file = path.join(dir, 'sub', 'object');
    const r = receiveFile(file, Readable.from(chunked(data, sizes)), { limit: Number.MAX_SAFE_INTEGER, expectedSize });
    expect(await r.done).toEqual({ size, md5: hex('md5', data), sha1: hex('sha1', data), sha256: hex('sha256', data) });
    expect(fs.readFileSync(file).equals(data)).toBe(true);
  });

  it('receives several large bodies at once through the shared worker, each whole and with its own digests', async () => {
    const bodies = [0, 1, 2, 3, 4].map((n) => {
      const b = body(2 * (1 << 20) + n * 77_777);
      b[0] = n; // each body its own
      return b;
    });
    const receipts = bodies.map((b, n) => {
      const src = new PassThrough();
      const r = receiveFile(path.join(dir, `c${n}`), src, { limit: Number.MAX_SAFE_INTEGER, expectedSize: b.length });
      // interleaved writes in odd chunk sizes
      void (async () => {
        for (const c of chunked(b, [65536, 1000 + n, 300_000])) {
          if (!src.write(c)) await new Promise((res) => src.once('drain', res));
          await new Promise((res) => setImmediate(res));
        }
        src.end();
      })();
      return r.done;
    });
    const results = await Promise.all(receipts);
    results.forEach((d, n) => {
      expect(d).toEqual({ size: bodies[n].length, md5: hex('md5', bodies[n]), sha1: hex('sha1', bodies[n]), sha256: hex('sha256', bodies[n]) });
      expect(fs.readFileSync(path.join(dir, `c${n}`)).equals(bodies[n])).toBe(true);
    });
  });

  it('fails with FileTooLargeError past the limit and removes the file, for both paths', async () => {
    for (const [size, expectedSize] of [[5000, 5000], [2_000_000, null]] as const) {
      const file = path.join(dir, `big-${size}`);
      const r = receiveFile(file, Readable.from(chunked(body(size), [65536])), { limit: size - 1, expectedSize });
      await expect(r.done).rejects.toBeInstanceOf(FileTooLargeError);
      expect(fs.existsSync(file)).toBe(false);
    }
  });

  it('fails when the body ends short of its declared length, and removes the file, for both paths', async () => {
    for (const [size, declared] of [[1000, 1001], [2_000_000, 2_000_001]] as const) {
      const file = path.join(dir, `short-${size}`);
      const r = receiveFile(file, Readable.from(chunked(body(size), [65536])), { limit: Number.MAX_SAFE_INTEGER, expectedSize: declared });
      await expect(r.done).rejects.toThrow(`request body ended after ${size} of ${declared} bytes`);
      expect(fs.existsSync(file)).toBe(false);
    }
  });

  it('fails once a limit set while bytes flow is passed', async () => {
    const src = new PassThrough();
    const file = path.join(dir, 'limited');
    const r = receiveFile(file, src, { limit: Number.MAX_SAFE_INTEGER, expectedSize: null });
    src.write(body(600_000));
    await new Promise((res) => setImmediate(res));
    r.limit(500_000);
    await expect(r.done).rejects.toBeInstanceOf(FileTooLargeError);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('removes what was written when cancelled, or when the body fails or is cut off', async () => {
    const cases: Array<[string, (src: PassThrough, r: ReturnType<typeof receiveFile>) => void]> = [
      ['cancelled', (_src, r) => r.cancel()],
      ['failed', (src) => src.destroy(new Error('socket reset'))],
      ['cut off', (src) => src.destroy()],
    ];
    for (const [name, end] of cases) {
      const src = new PassThrough();
      const file = path.join(dir, name);
      const r = receiveFile(file, src, { limit: Number.MAX_SAFE_INTEGER, expectedSize: 10 << 20 });
      src.write(body(1 << 20));
      await new Promise((res) => setTimeout(res, 20));
      end(src, r);
      await expect(r.done).rejects.toThrow();
      expect(fs.existsSync(file)).toBe(false);
    }
  });

  it('refuses to write over an existing file, leaving it as it was', async () => {
    const file = path.join(dir, 'taken');
    fs.writeFileSync(file, 'kept');
    for (const expectedSize of [3, 1 << 20]) {
      const r = receiveFile(file, Readable.from([body(3)]), { limit: 100, expectedSize });
      await expect(r.done).rejects.toMatchObject({ code: 'EEXIST' });
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('kept');
  });
});

describe('OffloadedMd5 in a process with nothing else to wait for', () => {
  it('holds the process open until its digest is answered, then lets it exit', () => {
    const script = [
      "const { OffloadedMd5 } = require('./src/md5-worker');",
      'const m = new OffloadedMd5();',
      'm.update(Buffer.alloc(1 << 20, 7));',
      'm.digest().then((hex) => process.stdout.write(hex));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: path.resolve(__dirname, '..'), encoding: 'utf8', timeout: 30_000 });
    expect(out).toBe(hex('md5', Buffer.alloc(1 << 20, 7)));
  });
});

describe('OffloadedMd5 writing to a descriptor', () => {
  it('rejects when the worker cannot write (a full disk), and keeps hashing other jobs', async () => {
    const full = fs.openSync('/dev/full', 'w');
    try {
      const failing = new OffloadedMd5(full);
      for (const c of chunked(body(1 << 20), [65536])) await failing.update(c);
      await expect(failing.digest()).rejects.toThrow(/ENOSPC/);
    } finally {
      fs.closeSync(full);
    }
    const data = body(700_000);
    const ok = new OffloadedMd5();
    for (const c of chunked(data, [65536])) await ok.update(c);
    expect(await ok.digest()).toBe(hex('md5', data));
  });

  it('fails the jobs of a lost worker, writes nothing for them once told, and starts new workers for the next', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md5-lost-'));
    const file = path.join(dir, 'lost');
    const fd = fs.openSync(file, 'w');
    try {
      const lost = new OffloadedMd5(fd);
      for (const c of chunked(body(1 << 20), [65536])) await lost.update(c);
      // stopped before the end is sent: the digest can only fail
      await stopHasher();
      await expect(lost.digest()).rejects.toThrow(/exited/);
      await lost.abandon();
      const size = fs.fstatSync(fd).size;
      await new Promise((res) => setTimeout(res, 50));
      // nothing was written after the failure was told
      expect(fs.fstatSync(fd).size).toBe(size);
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const data = body(900_000);
    const next = new OffloadedMd5();
    for (const c of chunked(data, [65536])) await next.update(c);
    expect(await next.digest()).toBe(hex('md5', data));
  });
});
