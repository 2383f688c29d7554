import fs from 'node:fs';
import path from 'node:path';

/**
 * Making a local object durable: its bytes flushed to the disk, and the directory entries that name
 * it. A rename or a new file is only in memory until its directory is synced: after a power loss a
 * file written and renamed but never synced can come back empty, or not at all.
 */

function flush(fd: number, data: boolean): Promise<void> {
  return new Promise((resolve, reject) => (data ? fs.fdatasync : fs.fsync)(fd, (e) => (e ? reject(e) : resolve())));
}

/**
 * Syncs the file or directory at `p`: opened and closed synchronously (metadata calls of a few µs),
 * the flush itself, which waits for the disk, on libuv's pool. `data`: the bytes only (fdatasync).
 */
async function syncPath(p: string, data: boolean): Promise<void> {
  const fd = fs.openSync(p, 'r');
  try {
    await flush(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The directories whose entries changed when `file` was put in place: its own and, when `created`
 * (the first directory made for it, as `mkdir -p` reports it) is set, the parent of each new one.
 */
export function changedDirs(file: string, created?: string): string[] {
  let dir = path.dirname(file);
  const dirs = [dir];
  const top = created === undefined ? dir : path.dirname(created);
  while (dir !== top && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
    dirs.push(dir);
  }
  return dirs;
}

/**
 * Flushes the bytes of `file` (unless `data` is false: flushed already), then the directories that
 * name it (see changedDirs), one after the other: flushes run at once wait on each other in the
 * file system's journal, and took longer here than in turn. The bytes go first, so the journal
 * commit they cause also carries the rename, and the directory's sync that follows has little left.
 */
export async function syncPlaced(file: string, created?: string, opts: { data: boolean } = { data: true }): Promise<void> {
  if (opts.data) await syncPath(file, true);
  for (const dir of changedDirs(file, created)) await syncPath(dir, false);
}
