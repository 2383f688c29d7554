/**
 * `conans/search?q=` queries: GitLab's limits and how the query becomes name/version/username
 * matchers. Pure. GitLab's `Packages::Conan::SearchService` and `PackageFinder`.
 */

export const MAX_SEARCH_TERM_LENGTH = 200;
export const MAX_WILDCARDS = 5;
/** At most this many packages answer one search, most recent first. */
export const MAX_SEARCH_RESULTS = 500;

/** A string matcher: a SQL LIKE pattern (`*` became `%`) or an exact value. */
export type Matcher = { op: 'like'; value: string } | { op: 'eq'; value: string };

export type SearchPlan =
  | { kind: 'error'; message: string }
  | { kind: 'empty' }
  /**
   * `username`, when given, names the project an instance-level search is limited to (the
   * `+`-joined path; one with a wildcard names none). A project-level search ignores it.
   */
  | { kind: 'search'; name: Matcher; version?: Matcher; username?: string };

/** Escapes LIKE metacharacters, then turns Conan's `*` into `%`. */
export function likePattern(part: string): string {
  return part.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

function matcher(part: string, alwaysLike: boolean): Matcher {
  return alwaysLike || part.includes('*') ? { op: 'like', value: likePattern(part) } : { op: 'eq', value: part };
}

/**
 * What a query asks for: a 400 message (too long, too many wildcards), nothing (`*`, no name,
 * `*` for both name and version), or the matchers to apply.
 * The name is always a LIKE pattern (case-insensitive unless `ignorecase=false`); the version is
 * exact unless it has a wildcard; the channel part is ignored.
 */
export function planSearch(q: string): SearchPlan {
  if (q.length > MAX_SEARCH_TERM_LENGTH) {
    return { kind: 'error', message: `Search term length must be less than ${MAX_SEARCH_TERM_LENGTH} characters.` };
  }
  if ((q.match(/\*/g) ?? []).length > MAX_WILDCARDS) {
    return { kind: 'error', message: `Too many wildcards in search term. Maximum is ${MAX_WILDCARDS}.` };
  }
  if (q === '*') return { kind: 'empty' };
  const [name, version, username] = q.split(/[@/]/);
  if (!name) return { kind: 'empty' };
  if (name === '*' && version === '*') return { kind: 'empty' };
  return {
    kind: 'search',
    name: matcher(name, true),
    version: version ? matcher(version, false) : undefined,
    username: username || undefined,
  };
}
