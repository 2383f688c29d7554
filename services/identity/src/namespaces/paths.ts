/**
 * Path rules shared by users, groups and projects (GitLab's `Gitlab::PathRegex`), as pure
 * functions: validation with GitLab's messages, and deriving a path from a name.
 */

/** GitLab's message for an invalid namespace (user or group) path. */
export const NAMESPACE_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
/** GitLab's message for an invalid project path. */
export const PROJECT_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
/** GitLab's message for an invalid project name. */
export const PROJECT_NAME_MESSAGE = "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";

const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const PROJECT_NAME = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Extended_Pictographic}_.+\- ]*$/u;

/** Top-level paths that would shadow the web UI or API routes. */
const RESERVED_TOP_LEVEL = new Set(['-', '.well-known', 'admin', 'api', 'assets', 'dashboard', 'explore', 'groups', 'help', 'import', 'jwt', 'login', 'oauth', 'profile', 'projects', 'public', 'search', 'sent_notifications', 'slash-command-logo.png', 'snippets', 'unsubscribes', 'uploads', 'users', 'v2']);

function badEnding(path: string): boolean {
  const p = path.toLowerCase();
  return p.endsWith('.git') || p.endsWith('.atom');
}

/** Errors of a user or group path (`[]` when valid); `topLevel` also checks reserved names. */
export function namespacePathErrors(path: string, topLevel: boolean): string[] {
  if (!path) return ["can't be blank"];
  if (path.length > 255) return ['is too long (maximum is 255 characters)'];
  if (!PATH.test(path) || path.endsWith('.') || badEnding(path)) return [NAMESPACE_PATH_MESSAGE];
  if (topLevel && RESERVED_TOP_LEVEL.has(path.toLowerCase())) return ['is a reserved name'];
  return [];
}

/** Errors of a project path (`[]` when valid). */
export function projectPathErrors(path: string): string[] {
  if (!path) return ["can't be blank"];
  if (path.length > 255) return ['is too long (maximum is 255 characters)'];
  if (!PATH.test(path) || badEnding(path)) return [PROJECT_PATH_MESSAGE];
  return [];
}

/** Errors of a project name (`[]` when valid). */
export function projectNameErrors(name: string): string[] {
  if (!name.trim()) return ["can't be blank"];
  if (name.length > 255) return ['is too long (maximum is 255 characters)'];
  if (!PROJECT_NAME.test(name)) return [PROJECT_NAME_MESSAGE];
  return [];
}

/** A path from a name, as Rails' `parameterize`: lower case, runs of other characters become `-`. */
export function parameterize(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Splits a full path `a/b/c` into the namespace part `a/b` and the last segment `c`
 * (null namespace for a single segment).
 */
export function splitFullPath(fullPath: string): { namespace: string | null; path: string } {
  const i = fullPath.lastIndexOf('/');
  return i < 0 ? { namespace: null, path: fullPath } : { namespace: fullPath.slice(0, i), path: fullPath.slice(i + 1) };
}

/** True when `ref` is a numeric id rather than a path. */
export function isNumericRef(ref: string): boolean {
  return /^\d+$/.test(ref) && ref.length < 16;
}
