import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Benchmark sizes: bytes and repetitions. */
export const SIZES: Record<string, [number, number]> = { '1K': [1024, 300], '1M': [1 << 20, 50], '100M': [100 << 20, 3], '1G': [1 << 30, 2] };

/** A file of `size` bytes (a fixed pseudo-random pattern) in the temp dir, made once and reused. */
export async function ensureFile(label: string, size: number): Promise<string> {
  const dir = path.join(tmpdir(), 'anvil-bench-files');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `file-${label}`);
  if (existsSync(file) && statSync(file).size === size) return file;
  const block = Buffer.alloc(1 << 20);
  for (let i = 0; i < block.length; i++) block[i] = (i * 2654435761) >>> 24;
  const out = createWriteStream(file);
  for (let left = size; left > 0; left -= block.length) {
    if (!out.write(block.subarray(0, Math.min(left, block.length)))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}
