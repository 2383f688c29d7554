import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';

/** One entry of a tar archive. */
export interface TarEntry {
  name: string;
  type: string;
  body: string;
}

/** Every entry of a `.tar.gz`, in archive order. */
export async function readArchive(gz: Buffer): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const ex = extract();
  ex.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c) => chunks.push(c as Buffer));
    stream.on('end', () => {
      entries.push({ name: header.name, type: header.type ?? 'file', body: Buffer.concat(chunks).toString('utf8') });
      next();
    });
  });
  await pipeline(Readable.from([gz]), createGunzip(), ex);
  return entries;
}

/** The parsed lines of an ndjson body. */
export function lines(body: string): Record<string, unknown>[] {
  return body.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A supertest parser that keeps a binary body as a Buffer. */
export function binary(res: unknown, cb: (err: Error | null, body: unknown) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c) => chunks.push(c as Buffer));
  stream.on('end', () => cb(null, Buffer.concat(chunks)));
}
