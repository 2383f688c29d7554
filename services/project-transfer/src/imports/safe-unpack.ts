import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import type { Storage } from '@anvil/storage';
import { EXPORT_VERSION, isTreeFile } from '../exports/export-layout';

/** Why an archive was refused; the message is what `import_error` shows. */
export class UnsafeArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeArchiveError';
  }
}

/** Bounds on what an archive may hold, checked while it streams. */
export interface UnpackLimits {
  maxEntries: number;
  /** Decompressed bytes of all entries together. */
  maxBytes: number;
}

/** Export format versions this importer reads (ndjson trees, GitLab 13 and later). */
export const KNOWN_VERSIONS = new Set(['0.2.4', EXPORT_VERSION]);

/** The limits when none are configured: generous for real projects, small enough to stop a bomb. */
export const DEFAULT_LIMITS: UnpackLimits = { maxEntries: 10_000, maxBytes: 4 * 1024 ** 3 };

/**
 * The entry's name relative to the archive root, or an UnsafeArchiveError: absolute paths, `..` or
 * empty segments, control characters (newlines included) and backslashes are refused.
 */
export function entryName(raw: string): string {
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) throw new UnsafeArchiveError('Archive entry name contains control characters');
  if (raw.startsWith('/')) throw new UnsafeArchiveError('Archive entry has an absolute path');
  const name = raw.replace(/^(\.\/)+/, '').replace(/\/$/, '');
  if (name === '' || name === '.') return '';
  const segments = name.split('/');
  if (segments.some((s) => s === '..')) throw new UnsafeArchiveError('Archive entry path escapes the archive');
  if (segments.some((s) => s === '' || s === '.')) throw new UnsafeArchiveError('Archive entry path is not normalised');
  return name;
}

function checkType(h: Header): 'file' | 'directory' {
  if (h.type === 'file' || h.type === 'contiguous-file') return 'file';
  if (h.type === 'directory') return 'directory';
  if (h.type === 'symlink' || h.type === 'link') throw new UnsafeArchiveError('Archive contains links');
  throw new UnsafeArchiveError(`Archive contains an entry of type ${h.type}`);
}

/** Reads a small entry (at most 64 bytes kept). */
async function readSmall(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    size += (c as Buffer).length;
    if (size <= 64) chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads an entry to its end, keeping nothing. */
async function discard(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

/**
 * Unpacks a gzip tar stream into storage under `prefix` (the import's own directory), refusing unsafe
 * archives as it streams: links, devices, unsafe names, duplicate entries, more entries or more
 * decompressed bytes than `limits`, a missing or unknown `VERSION`, no `tree/project.json`. Only
 * `VERSION`, `tree/project.json` and `tree/project/*.ndjson` are kept; other entries are read and
 * dropped. On refusal, whatever was written under `prefix` is deleted. Returns the kept files.
 */
export async function unpackArchive(storage: Storage, body: Readable, prefix: string, limits: UnpackLimits = DEFAULT_LIMITS): Promise<string[]> {
  const seen = new Set<string>();
  const kept: string[] = [];
  let bytes = 0;
  let version: string | null = null;
  let failure: unknown;
  const ex = extract();
  ex.on('entry', (header, stream, next) => {
    const handle = async () => {
      if (seen.size + 1 > limits.maxEntries) throw new UnsafeArchiveError(`Archive has more than ${limits.maxEntries} entries`);
      const type = checkType(header);
      const name = entryName(header.name);
      if (name !== '' && seen.has(name)) throw new UnsafeArchiveError('Archive contains duplicate entries');
      seen.add(name);
      if ((header.size ?? 0) + bytes > limits.maxBytes) throw new UnsafeArchiveError('Archive is larger than the import limit');
      // counted as it streams: a gzip bomb stops at the limit, whatever its headers claim
      const counted = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          bytes += chunk.length;
          cb(bytes > limits.maxBytes ? new UnsafeArchiveError('Archive is larger than the import limit') : null, chunk);
        },
      });
      (stream as unknown as Readable).pipe(counted);
      stream.on('error', (e) => counted.destroy(e));
      if (type === 'directory') return discard(counted);
      if (name === 'VERSION') {
        version = (await readSmall(counted)).trim();
        if (!KNOWN_VERSIONS.has(version)) throw new UnsafeArchiveError(`Import version mismatch: Required ${EXPORT_VERSION} but was ${version.slice(0, 20)}`);
        return;
      }
      if (!isTreeFile(name)) return discard(counted);
      await storage.put(prefix + name, counted);
      kept.push(name);
    };
    stream.on('error', () => undefined);
    handle().then(
      () => next(),
      (e: unknown) => {
        failure ??= e;
        stream.resume();
        ex.destroy(e as Error);
      },
    );
  });
  try {
    await pipeline(body, createGunzip(), ex);
    if (version === null) throw new UnsafeArchiveError('Import version mismatch: VERSION file is missing');
    if (!kept.includes('tree/project.json')) throw new UnsafeArchiveError('invalid import format');
  } catch (caught) {
    const e = failure ?? caught;
    await storage.deletePrefix(prefix).catch(() => undefined);
    if (e instanceof UnsafeArchiveError) throw e;
    throw new UnsafeArchiveError(`Archive could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  return kept;
}
