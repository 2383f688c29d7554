import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * How old a file in local storage's temporary directory must be to be taken for one a process left
 * when it stopped mid-put or mid-retire. A put in progress keeps its file's modification time
 * fresh with every write; a retired object waits there only for its unlink, moments after.
 */
export const TEMP_ORPHAN_AGE_MS = 24 * 3600 * 1000;

/** Deletes the files in `dir` last modified before `now - TEMP_ORPHAN_AGE_MS`; resolves with how many. */
export async function sweepTempDir(dir: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const st = await fsp.lstat(file).catch(() => null);
    if (!st?.isFile() || st.mtimeMs >= now - TEMP_ORPHAN_AGE_MS) continue;
    // another process may have removed it meanwhile (its own retire's unlink)
    if (await fsp.unlink(file).then(() => true, () => false)) removed++;
  }
  return removed;
}
