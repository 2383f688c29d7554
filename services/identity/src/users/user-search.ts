import type { Knex } from 'knex';
import type { Request } from 'express';
import { COUNT_LIMIT, offsetHeaders, Page, pageRequest } from '@anvil/http';
import { likeEscape } from '../sql';

/** A quoted term stands alone between spaces (or the ends): GitLab's `REGEX_QUOTED_TERM`. */
const QUOTED = /(?<=^| )"[^"]+"(?= |$)/g;

/** Terms shorter than this match only a whole name or username (GitLab's `MIN_CHARS_FOR_PARTIAL_MATCHING`). */
const MIN_PARTIAL = 3;

/**
 * A user search as GitLab's `User.search` reads it: `query` lower-cased without a leading `@`
 * (it matches a public e-mail, an administrator's search also a primary or confirmed secondary
 * one, and ranks exact matches first); `words`, its terms of at least 3 characters (whitespace
 * split, `"quoted phrases"` kept whole), each of which a name or a username must contain; with no
 * such term, `whole` (the squished query) must equal the name or username.
 */
export interface UserSearch {
  query: string;
  words: string[];
  whole: string;
}

/** Parses `search`; null when nothing is left to search for (GitLab answers no user). */
export function parseUserSearch(raw: string): UserSearch | null {
  const query = raw.replace(/^@/, '').toLowerCase();
  const whole = query.trim().replace(/\s+/g, ' ');
  if (!whole) return null;
  const quoted: string[] = [];
  const rest = whole.replace(QUOTED, (m) => {
    quoted.push(m.slice(1, -1));
    return '';
  });
  const words = [...rest.split(' ').filter(Boolean), ...quoted].filter((w) => [...w].length >= MIN_PARTIAL);
  return { query, words, whole };
}

/**
 * The name-or-username condition of `s` on `users`. One word reads `search_text` (lower-cased name
 * and username on two lines, one trigram index: a word holds no line break, so it cannot match
 * across them); several words are narrowed the same way, then must all stand before the line
 * break (in the name) or all after it (in the username), as GitLab's `fuzzy_arel_match` of each
 * column.
 */
export function nameOrUsernameMatch(knex: Knex, s: UserSearch): Knex.Raw {
  if (!s.words.length) return knex.raw('(lower(users.name) = ? OR lower(users.username) = ?)', [s.whole, s.whole]);
  const escaped = s.words.map(likeEscape);
  const all = (patterns: string[]) => patterns.map(() => 'users.search_text LIKE ?').join(' AND ');
  const anywhere = escaped.map((w) => `%${w}%`);
  if (anywhere.length === 1) return knex.raw(all(anywhere), anywhere);
  // before the line break: in the name; after it: in the username
  const inName = escaped.map((w) => `%${w}%\n%`);
  const inUsername = escaped.map((w) => `%\n%${w}%`);
  return knex.raw(`(${all(anywhere)} AND ((${all(inName)}) OR (${all(inUsername)})))`, [...anywhere, ...inName, ...inUsername]);
}

/** GitLab's match priority: the public e-mail, then the username, then the name equal to the query. */
function exactMatch(knex: Knex, s: UserSearch): Knex.Raw {
  return knex.raw('(lower(users.public_email) = ? OR lower(users.username) = ? OR lower(users.name) = ?)', [s.query, s.query, s.query]);
}

function priority(knex: Knex, s: UserSearch): Knex.Raw {
  return knex.raw('CASE WHEN lower(users.public_email) = ? THEN 0 WHEN lower(users.username) = ? THEN 1 WHEN lower(users.name) = ? THEN 2 ELSE 3 END', [s.query, s.query, s.query]);
}

/** Up to this many matches, the non-exact ones are sorted by name; past it, read in `(name, id)` order. */
const SORTED_MATCHES_MAX = 3000;

/**
 * An offset page of a search in GitLab's relevance order (match priority, name, id), read in
 * parts so that no statement sorts every match of a common term: the matches are counted first (up
 * to 10,001, as every list; `countable`), then the exact matches (few: three index probes for
 * their ids) ranked first, then the others by name: sorted when there are at most 3,000 of them,
 * else read along the `(name, id)` index until the page is full (common terms match densely; the
 * planner, which cannot know where in the name order the matches lie, is not left to choose).
 * `unordered` is the filtered list without an order.
 */
export async function searchPage<T>(req: Request, knex: Knex, s: UserSearch, unordered: Knex.QueryBuilder, countable: Knex.QueryBuilder): Promise<Page<T>> {
  const { page, perPage, offset } = pageRequest(req);
  const counted = knex.queryBuilder().count({ n: '*' }).from(countable.clone().clearSelect().select(knex.raw('1')).limit(COUNT_LIMIT + 1).as('c'));
  const total = Number(((await counted) as { n: string }[])[0].n);
  const want = offset + perPage + 1;
  let rows: T[] = [];
  if (offset < total || total > COUNT_LIMIT) {
    const exactIds = knex.raw('users.id = ANY(ARRAY(SELECT x.id FROM users x WHERE lower(x.public_email) = ? OR lower(x.username) = ? OR lower(x.name) = ?))', [s.query, s.query, s.query]);
    const exact = (await unordered.clone().whereRaw('?', [exactIds]).orderByRaw('?', [priority(knex, s)]).orderBy('users.name').orderBy('users.id').limit(want)) as T[];
    rows = exact.slice(offset);
    if (exact.length < want) {
      const rest = unordered.clone().whereRaw('? IS NOT TRUE', [exactMatch(knex, s)]);
      // `name || ''` orders as `name` does but is no index key: the matches are sorted, not walked to
      if (total <= SORTED_MATCHES_MAX) rest.orderByRaw("users.name || ''");
      else rest.orderBy('users.name');
      rows = rows.concat((await rest.orderBy('users.id').offset(Math.max(0, offset - exact.length)).limit(perPage + 1 - rows.length)) as T[]);
    }
  }
  return { items: rows.slice(0, perPage), headers: offsetHeaders(req, { page, perPage, total: total > COUNT_LIMIT ? null : total, hasNext: rows.length > perPage }) };
}
