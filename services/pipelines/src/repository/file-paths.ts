/**
 * `file_path` of the Repository Files API: Grape's `file_path` validator (Gitlab::PathTraversal:
 * no `.`/`..` path, no `../` or `/..` parts, no newline, not absolute) and the paths Git can hold.
 * See ../shared/reference/repository-files.md §2.
 */
import { ParamError } from '@anvil/http';
import { RepositoryError } from './errors';

const TRAVERSAL = /(^\.{1,2}$|^\.\.[/\\]|[/\\]\.\.$|[/\\]\.\.[/\\]|\n)/;

/** The path, or 400 `file_path should be a valid file path`; `allowInitialSeparator` (raw) drops leading `/`. */
export function validFilePath(raw: string, allowInitialSeparator = false): string {
  const path = allowInitialSeparator ? raw.replace(/^\/+/, '') : raw;
  if (!path || TRAVERSAL.test(path) || path.startsWith('/')) throw new ParamError('file_path should be a valid file path');
  return path;
}

/** The longest path committed, in bytes (Linux PATH_MAX: what a checkout of it could hold). */
export const MAX_PATH_BYTES = 4096;

/** A path Git can commit (no empty, `.`, `..` or `.git` part, no NUL, at most MAX_PATH_BYTES), or 400 `invalid path: '<path>'` as Gitaly answers. */
export function committablePath(path: string): string {
  const parts = path.split('/');
  const bad = parts.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git' || s.includes('\0'));
  if (bad || Buffer.byteLength(path) > MAX_PATH_BYTES) throw new RepositoryError(`invalid path: '${path}'`);
  return path;
}
