/**
 * Run by durability.test.ts under strace: stores objects in a LocalStorage at argv[2] (fsync as
 * argv[3] says) and marks where each step begins with a failed open of `<root>/MARK-<step>`, so the
 * trace can be cut into steps. Prints the bytes read back of each object as JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { LocalStorage } from '../src';

const [root, fsync] = process.argv.slice(2);

function mark(step: string): void {
  try {
    fs.closeSync(fs.openSync(path.join(root, `MARK-${step}`), 'r'));
  } catch {
    // the failed open is the mark
  }
}

async function main(): Promise<void> {
  const storage = new LocalStorage(root, { fsync: fsync === 'true' });
  const bytes = (n: number, seed: number) => Buffer.alloc(n, seed);
  mark('put-new-dirs');
  await storage.put('a/b/c.bin', Readable.from([bytes(3000, 1)]));
  mark('put-existing-dir');
  await storage.put('a/b/d.bin', Readable.from([bytes(70_000, 2)]));
  mark('put-fresh');
  await storage.put('x/y.bin', Readable.from([bytes(10, 3)]), { fresh: true });
  mark('receive');
  const receipt = storage.receive('uploads/u1', Readable.from([bytes(5000, 4)]), { limit: 1 << 20, expectedSize: 5000 });
  await receipt.done;
  mark('move');
  await storage.move('uploads/u1', 'a/b/e.bin');
  mark('receive-large');
  const large = Array.from({ length: 192 }, () => bytes(65_536, 5)); // 12 MiB, three early-flush steps
  const big = storage.receive('uploads/u2', Readable.from(large), { limit: 1 << 30, expectedSize: 192 * 65_536 });
  await big.done;
  mark('move-large');
  await storage.move('uploads/u2', 'a/b/f.bin');
  mark('end');
  const out: Record<string, number[]> = {};
  for (const key of ['a/b/c.bin', 'a/b/d.bin', 'x/y.bin', 'a/b/e.bin', 'a/b/f.bin']) {
    const data = fs.readFileSync(storage.localPath(key));
    out[key] = [data.length, data[0]];
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e: unknown) => {
  process.stderr.write(String((e as Error)?.stack ?? e));
  process.exit(1);
});
