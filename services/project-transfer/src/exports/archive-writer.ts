import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import type { Storage } from '@anvil/storage';
import { EXPORT_VERSION, isTreeFile } from './export-layout';

const MTIME = () => new Date();

/** Adds one entry to `pack` from a stream of known size, resolving once tar-stream has taken it all. */
function addEntry(pack: ReturnType<typeof tarPack>, name: string, size: number, body: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o644, mtime: MTIME() }, (err) => (err ? reject(err) : resolve()));
    pipeline(body, entry).catch(reject);
  });
}

function addDirectory(pack: ReturnType<typeof tarPack>, name: string): void {
  pack.entry({ name, type: 'directory', mode: 0o755, mtime: MTIME() });
}

/**
 * Streams the export archive of the parts under `prefix` into storage at `key`: gzip of a tar with
 * `./VERSION`, `./tree/`, `./tree/project.json`, `./tree/project/` and every `tree/project/*.ndjson`,
 * as GitLab's `tar -czf <archive> -C <export dir> .` lays it out. Each part is read from storage as it
 * is packed, so neither a part nor the archive is ever held whole in memory. Returns the archive's size.
 */
export async function writeArchive(storage: Storage, prefix: string, key: string): Promise<{ size: number }> {
  const pack = tarPack();
  const gzipped = new PassThrough();
  const stored = storage.put(key, gzipped, { contentType: 'application/gzip' });
  const packed = pipeline(pack, createGzip(), gzipped);
  try {
    await addEntry(pack, './VERSION', EXPORT_VERSION.length, Readable.from([Buffer.from(EXPORT_VERSION)]));
    addDirectory(pack, './tree/');
    const files: string[] = [];
    for await (const info of storage.list(prefix)) {
      const relative = info.key.slice(prefix.length);
      if (isTreeFile(relative)) files.push(relative);
    }
    files.sort((a, b) => (a === 'tree/project.json' ? -1 : b === 'tree/project.json' ? 1 : a < b ? -1 : 1));
    let dirAdded = false;
    for (const relative of files) {
      if (relative.startsWith('tree/project/') && !dirAdded) {
        addDirectory(pack, './tree/project/');
        dirAdded = true;
      }
      const object = await storage.read(prefix + relative);
      if (!object) throw new Error(`export part file missing: ${relative}`);
      await addEntry(pack, `./${relative}`, object.size, object.body);
    }
    pack.finalize();
  } catch (e) {
    pack.destroy(e as Error);
    await Promise.allSettled([packed, stored]);
    throw e;
  }
  await packed;
  return stored;
}
