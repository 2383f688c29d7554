import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DigestStream, feedDigest, FileTooLargeError } from '../src/digest';

const hex = (alg: string, b: Buffer) => createHash(alg).update(b).digest('hex');

function body(size: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + (i >> 8)) & 0xff;
  return b;
}

/** Feeds `data` through a DigestStream in chunks of the given sizes (cycled) and collects what passes. */
async function run(data: Buffer, chunkSizes: number[], limit = Infinity, capture = 0, expectedSize: number | null = null) {
  const chunks: Buffer[] = [];
  for (let off = 0, i = 0; off < data.length; i++) {
    const n = chunkSizes[i % chunkSizes.length];
    chunks.push(data.subarray(off, off + n));
    off += n;
  }
  const d = new DigestStream(limit, capture, expectedSize);
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), d, new Writable({ write: (c: Buffer, _e, cb) => (out.push(c), cb()) }));
  return { d, passed: Buffer.concat(out) };
}

describe('DigestStream', () => {
  it.each([
    ['empty', 0, [1]],
    ['one byte', 1, [1]],
    ['under one MD5 batch (hashed in-thread)', 700_000, [65536]],
    ['exactly one batch', 1 << 20, [65536]],
    ['several batches in odd chunks (hashed on the worker)', 5 * (1 << 20) + 12345, [65536, 1000, 300_000, 7]],
    ['large chunks crossing batches', 3 * (1 << 20) + 1, [1_500_000]],
  ])('%s: size and MD5/SHA-1/SHA-256 equal node:crypto, bytes pass unchanged', async (_n, size, chunks) => {
    const data = body(size);
    const { d, passed } = await run(data, chunks);
    expect(passed.equals(data)).toBe(true);
    expect(await d.digests()).toEqual({ size, md5: hex('md5', data), sha1: hex('sha1', data), sha256: hex('sha256', data) });
  });

  it.each([
    ['declared small (MD5 inline)', 200_007, 200_007],
    ['declared larger than the inline bound (MD5 on the worker)', 5 * (1 << 20) + 3, 5 * (1 << 20) + 3],
    ['declared small but longer in fact', 3 * (1 << 20) + 100_000, 1000],
  ])('%s: the same digests either way', async (_n, size, declared) => {
    const data = body(size);
    const { d } = await run(data, [65536, 999], Infinity, 0, declared);
    expect(await d.digests()).toEqual({ size, md5: hex('md5', data), sha1: hex('sha1', data), sha256: hex('sha256', data) });
  });

  it('keeps concurrent digests apart', async () => {
    const [a, b] = [body(3 << 20), body((2 << 20) + 5).reverse()];
    const [ra, rb] = await Promise.all([run(a, [65536]), run(b, [32768])]);
    expect((await ra.d.digests()).md5).toBe(hex('md5', a));
    expect((await rb.d.digests()).md5).toBe(hex('md5', b));
  });

  it('fails with FileTooLargeError past the limit', async () => {
    await expect(run(body(2000), [500], 1999)).rejects.toBeInstanceOf(FileTooLargeError);
    await expect(run(body(2000), [500], 2000)).resolves.toBeDefined();
  });

  it('takes a limit set while bytes flow: fails at once when more already passed, else later', async () => {
    const past = new DigestStream(Infinity);
    const failed = new Promise((resolve) => past.once('error', resolve));
    past.resume();
    past.write(Buffer.alloc(1000));
    await new Promise((r) => setImmediate(r));
    past.setLimit(999);
    expect(await failed).toBeInstanceOf(FileTooLargeError);
    const later = new DigestStream(Infinity);
    later.setLimit(1500);
    later.resume();
    const laterFailed = new Promise((resolve) => later.once('error', resolve));
    later.write(Buffer.alloc(1000));
    later.write(Buffer.alloc(1000));
    expect(await laterFailed).toBeInstanceOf(FileTooLargeError);
  });

  it('captures the first bytes and says whether that was all', async () => {
    const small = await run(Buffer.from('[settings]\nos=Linux\n'), [5], Infinity, 64);
    expect(small.d.captured()).toEqual({ data: Buffer.from('[settings]\nos=Linux\n'), complete: true });
    const big = await run(body(1000), [300], Infinity, 64);
    expect(big.d.captured().complete).toBe(false);
    expect(big.d.captured().data).toHaveLength(64);
  });
});

describe('feedDigest', () => {
  const consume = (d: DigestStream) => pipeline(d, new Writable({ write: (_c, _e, cb) => cb() }));

  it('digests a body that ends, and lets go of it', async () => {
    const data = body(300_000);
    const src = Readable.from([data]);
    const d = new DigestStream(Infinity);
    const detach = feedDigest(src, d);
    await consume(d);
    detach();
    expect(await d.digests()).toMatchObject({ size: data.length, sha1: hex('sha1', data) });
    expect(src.listenerCount('close')).toBe(0);
  });

  it('fails the digest when the body fails or closes before its end', async () => {
    const failing = new Readable({ read() {} });
    const d1 = new DigestStream(Infinity);
    feedDigest(failing, d1);
    failing.push(Buffer.from('part'));
    failing.destroy(new Error('reset'));
    await expect(consume(d1)).rejects.toThrow('reset');
    const cut = new Readable({ read() {} });
    const d2 = new DigestStream(Infinity);
    feedDigest(cut, d2);
    cut.destroy();
    await expect(consume(d2)).rejects.toThrow('request body aborted');
  });

  it('fails the digest at once for a body closed before it was fed (its close came and went)', async () => {
    const gone = new Readable({ read() {} });
    gone.destroy();
    await new Promise((r) => setImmediate(r));
    const d = new DigestStream(Infinity);
    feedDigest(gone, d);
    await expect(consume(d)).rejects.toThrow('request body aborted');
  });
});

