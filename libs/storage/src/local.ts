import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { InvalidKeyError, TEMP_DIR, compareKeys, validateKey, validatePrefix } from './keys';
import { EARLY_FLUSH_EVERY } from './local-early-flush';
import { type Receipt, receiveFile } from './local-receive';
import { syncPlaced } from './local-sync';
import { sweepTempDir } from './local-temp';
import { closeFd, LOCAL_CHUNK_SIZE, type OpenedFile, readWhole, sendBytes, sendPooled, SMALL_READ } from './local-send';
import type { ObjectInfo, PutOptions, ReceiveOptions, Storage } from './types';

export { LOCAL_CHUNK_SIZE, SMALL_READ, type OpenedFile } from './local-send';

/** Opens a new file for writing (failing if it exists) and resolves with its descriptor. */
function openExclusive(file: string): Promise<number> {
  return new Promise((resolve, reject) => fs.open(file, 'wx', (err, fd) => (err ? reject(err) : resolve(fd))));
}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function isMissing(e: unknown): boolean {
  return MISSING.has((e as NodeJS.ErrnoException)?.code ?? '');
}

async function statFile(file: string): Promise<fs.Stats | null> {
  try {
    const st = await fsp.stat(file);
    return st.isFile() ? st : null;
  } catch (e) {
    if (isMissing(e)) return null;
    throw e;
  }
}

export interface LocalStorageOptions {
  /**
   * Whether a put or move resolves only once the object is on disk: its bytes flushed and the
   * directories that name it synced (default true). Without, a power loss may take back objects
   * already acknowledged, or leave them empty.
   */
  fsync?: boolean;
}

/**
 * Objects as files under one root directory. Keys are validated so nothing escapes the root; a put
 * streams into `<root>/.anvil-tmp/` and renames into place, so readers see the old or the new object,
 * never a part, and concurrent puts to one key leave exactly one of them. Symlinks are never followed
 * when listing.
 */
export class LocalStorage implements Storage {
  /** The absolute root directory. */
  readonly root: string;
  /** Whether puts and moves are durable when they resolve (LocalStorageOptions). */
  readonly fsync: boolean;

  constructor(rootDir: string, opts: LocalStorageOptions = {}) {
    this.root = path.resolve(rootDir);
    this.fsync = opts.fsync ?? true;
  }

  /** The absolute file path of `key` (validated), e.g. for sendfile-style serving. */
  localPath(key: string): string {
    validateKey(key);
    const file = path.join(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new InvalidKeyError(key, 'escapes the storage root');
    return file;
  }

  async put(key: string, body: Readable, opts?: PutOptions): Promise<{ size: number }> {
    const dest = this.localPath(key);
    const file = opts?.fresh ? dest : path.join(this.root, TEMP_DIR, randomUUID());
    const { fd, created } = await this.create(file).catch((e: unknown) => {
      // as a failed pipeline would: the body is released (its owner hears of the failure from us)
      body.destroy();
      throw e;
    });
    // with fsync, the bytes are flushed before the descriptor is closed (and so before the rename)
    const out = fs.createWriteStream(file, { fd, highWaterMark: LOCAL_CHUNK_SIZE, flush: this.fsync });
    try {
      await pipeline(body, out);
      // the directories made for the object: by the rename, or (written in place) before the write
      const made = file !== dest ? this.moveInto(file, dest) : created;
      if (this.fsync) await syncPlaced(dest, made, { data: false });
    } catch (e) {
      await fsp.rm(file, { force: true });
      throw e;
    }
    return { size: out.bytesWritten };
  }

  /**
   * Creates `file` exclusively and returns its descriptor, making its directory when missing (the
   * temp directory on the first put, an upload's directory now and then; `created` is the first
   * directory made).
   */
  private async create(file: string): Promise<{ fd: number; created?: string }> {
    try {
      return { fd: await openExclusive(file) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const created = await fsp.mkdir(path.dirname(file), { recursive: true });
      return { fd: await openExclusive(file), created };
    }
  }

  /**
   * Renames a finished file over `dest`, making its directory when the rename finds none (the first
   * object there, or a concurrent delete pruned it). Synchronous on purpose: a rename on a local disk
   * takes tens of microseconds, less than one round trip through libuv's thread pool, and this sits
   * on every upload's critical path. Returns the first directory it made, if any.
   */
  private moveInto(file: string, dest: string): string | undefined {
    let made: string | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        fs.renameSync(file, dest);
        return made;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw e;
        made = fs.mkdirSync(path.dirname(dest), { recursive: true }) ?? made;
      }
    }
  }

  /**
   * Receives `body` as the new object `key` (a fresh key nobody reads yet: written in place), measuring
   * its size and digests on the way; see `receiveFile`. Fails when the object exists. The object is
   * complete when `done` resolves but not synced: it is meant to be moved into place (an upload body
   * the gateway stores), and the move makes it durable. With fsync, a large body is flushed as it
   * arrives (`EarlyFlush`), so the move's flush has only its tail left.
   */
  receive(key: string, body: Readable, opts: ReceiveOptions): Receipt {
    return receiveFile(this.localPath(key), body, { ...opts, flushEvery: this.fsync ? EARLY_FLUSH_EVERY : undefined });
  }

  async get(key: string): Promise<Readable | null> {
    return (await this.read(key))?.body ?? null;
  }

  /**
   * Opens the file once and streams exactly its size: reads are at most 1 MiB and never larger than
   * the file (a 1 KB object does not cost a 1 MiB buffer).
   */
  async read(key: string): Promise<{ body: Readable; size: number } | null> {
    const opened = this.openFile(key);
    if (!opened) return null;
    const { fd, size } = opened;
    if (size === 0) {
      fs.closeSync(fd);
      return { body: Readable.from([]), size: 0 };
    }
    return { body: fs.createReadStream('', { fd, start: 0, end: size - 1, highWaterMark: Math.min(LOCAL_CHUNK_SIZE, size) }), size };
  }

  /**
   * Opens the file of `key` for a pooled send (see OpenedFile), or null when it does not exist. A file
   * of at most SMALL_READ bytes is read whole now and closed, synchronously: two system calls cost less
   * than the two round trips through libuv's thread pool (read, close) they replace.
   */
  async open(key: string): Promise<OpenedFile | null> {
    const opened = this.openFile(key);
    if (!opened) return null;
    const { fd, size } = opened;
    if (size <= SMALL_READ) {
      let bytes: Buffer;
      try {
        bytes = readWhole(fd, size);
      } finally {
        fs.closeSync(fd);
      }
      return { size, sendTo: (dest) => sendBytes(bytes, dest), close: async () => undefined };
    }
    return { size, sendTo: (dest) => sendPooled(fd, size, dest), close: () => closeFd(fd) };
  }

  /**
   * The open descriptor of `key`'s file and its size; null when there is none (or it is not a regular
   * file). Opened and measured synchronously: two metadata calls on a local disk cost less than the
   * two round trips through libuv's thread pool they would take, and they delay every download's first
   * byte. The reads that follow are asynchronous.
   */
  private openFile(key: string): { fd: number; size: number } | null {
    let fd: number;
    try {
      fd = fs.openSync(this.localPath(key), 'r');
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
    let st: fs.Stats;
    try {
      st = fs.fstatSync(fd);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    if (!st.isFile()) {
      fs.closeSync(fd);
      return null;
    }
    return { fd, size: st.size };
  }

  async move(from: string, to: string): Promise<void> {
    const src = this.localPath(from);
    const dest = this.localPath(to);
    const made = this.moveInto(src, dest);
    // the bytes too: the object may have been written unsynced (`receive`)
    if (this.fsync) await syncPlaced(dest, made);
    await this.prune(path.dirname(src));
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const st = await statFile(this.localPath(key));
    return st ? { key, size: st.size, lastModified: st.mtime } : null;
  }

  async delete(key: string): Promise<void> {
    const file = this.localPath(key);
    try {
      await fsp.unlink(file);
    } catch (e) {
      if (isMissing(e) || (e as NodeJS.ErrnoException).code === 'EPERM') return;
      throw e;
    }
    await this.prune(path.dirname(file));
  }

  async retire(key: string): Promise<void> {
    const file = this.localPath(key);
    const trash = path.join(this.root, TEMP_DIR, randomUUID());
    try {
      this.moveInto(file, trash);
    } catch (e) {
      // no such object (a missing temporary directory is made by moveInto)
      if (isMissing(e) && !fs.existsSync(file)) return;
      throw e;
    }
    // gone for readers now: freeing its space and pruning its directory need not be waited for
    void fsp.unlink(trash).catch(() => undefined);
    void this.prune(path.dirname(file)).catch(() => undefined);
  }

  /**
   * Deletes what processes that stopped mid-put or mid-retire left in the temporary directory (files
   * not written for a day, `TEMP_ORPHAN_AGE_MS`); resolves with how many. Run at start-up.
   */
  sweepTemp(now = Date.now()): Promise<number> {
    return sweepTempDir(path.join(this.root, TEMP_DIR), now);
  }

  /** Sweeps the temporary directory (`sweepTemp`); a failure there does not stop the start. */
  async prepare(): Promise<void> {
    await this.sweepTemp().catch(() => 0);
  }

  /** Deletes every object whose key starts with `prefix`; an empty prefix is refused. */
  async deletePrefix(prefix: string): Promise<void> {
    validatePrefix(prefix);
    if (prefix === '') throw new InvalidKeyError(prefix, 'refusing to delete every object');
    if (prefix.endsWith('/')) {
      const dir = path.join(this.root, ...prefix.slice(0, -1).split('/'));
      await fsp.rm(dir, { recursive: true, force: true });
      await this.prune(path.dirname(dir));
      return;
    }
    const keys: string[] = [];
    for await (const o of this.list(prefix)) keys.push(o.key);
    for (const key of keys) await this.delete(key);
  }

  /**
   * Removes empty directories from `dir` up to (not including) the first level below the root; stops
   * at the first non-empty one. First-level directories (`conan/`, `uploads/`) are namespaces that
   * fill again at once: removing one whenever it empties would only make the next write recreate it.
   */
  private async prune(dir: string): Promise<void> {
    while (dir.startsWith(this.root + path.sep) && path.dirname(dir) !== this.root) {
      try {
        await fsp.rmdir(dir);
      } catch {
        return;
      }
      dir = path.dirname(dir);
    }
  }

  /** Every object whose key starts with `prefix` (string prefix, as on S3), in S3's key order. */
  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    validatePrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash);
    const dir = base ? path.join(this.root, ...base.split('/')) : this.root;
    yield* this.walk(dir, base, prefix.slice(slash + 1));
  }

  private async *walk(dir: string, base: string, namePrefix = ''): AsyncGenerator<ObjectInfo> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (isMissing(e)) return;
      throw e;
    }
    // A directory sorts as `name/`, which makes the depth-first walk yield keys in full-key order.
    const items = entries
      .filter((d) => d.name.startsWith(namePrefix) && !(base === '' && d.name === TEMP_DIR))
      .map((d) => ({ d, sortKey: d.isDirectory() ? `${d.name}/` : d.name }))
      .sort((a, b) => compareKeys(a.sortKey, b.sortKey));
    for (const { d } of items) {
      const key = base ? `${base}/${d.name}` : d.name;
      const full = path.join(dir, d.name);
      if (d.isDirectory()) {
        yield* this.walk(full, key);
      } else if (d.isFile()) {
        const st = await statFile(full);
        if (st) yield { key, size: st.size, lastModified: st.mtime };
      }
    }
  }
}
