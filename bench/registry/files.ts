import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Benchmark sizes: bytes and repetitions (each a few seconds at the small sizes, where one run is noisy). */
export const SIZES: Record<string, [number, number]> = { '1K': [1024, 2000], '1M': [1 << 20, 300], '100M': [100 << 20, 3], '1G': [1 << 30, 2] };

/**
 * Round trips (an upload and a download) run and discarded before a size is measured: as many as are
 * measured, up to 256 MB of transfers (1 KB and 1 MB: all; 100 MB: 2; 1 GB: none, its first
 * gigabyte's chunks warm the paths). A server that has run a while has compiled its hot paths (V8's
 * JIT) and grown its pools; every target gets the same.
 */
export function warmUpReps(size: number, reps: number): number {
  return Math.min(reps, Math.floor((256 << 20) / size));
}

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
