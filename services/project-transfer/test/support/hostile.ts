import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';

/** One entry of a handmade archive. */
export interface Entry {
  name: string;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'block-device' | 'fifo';
  body?: string | Buffer;
  linkname?: string;
}

/** A gzip tar of `entries`, in order (names written as given, however hostile). */
export async function makeArchive(entries: Entry[]): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c) => chunks.push(c as Buffer));
  const done = new Promise<void>((r) => p.on('end', () => r()));
  for (const e of entries) {
    const body = e.body === undefined ? undefined : Buffer.isBuffer(e.body) ? e.body : Buffer.from(e.body);
    await new Promise<void>((resolve, reject) => {
      p.entry({ name: e.name, type: e.type ?? 'file', linkname: e.linkname, size: body?.length ?? 0, mode: 0o644 }, body ?? (undefined as never), (err) => (err ? reject(err) : resolve()));
    });
  }
  p.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/** The entries of a well-formed minimal export. */
export function validEntries(): Entry[] {
  return [
    { name: './VERSION', body: '0.2.4' },
    { name: './tree/', type: 'directory' },
    { name: './tree/project.json', body: '{"description":"x"}' },
    { name: './tree/project/', type: 'directory' },
    { name: './tree/project/issues.ndjson', body: '' },
  ];
}

/** A stream of `buf`. */
export function streamOf(buf: Buffer): Readable {
  return Readable.from([buf]);
}
