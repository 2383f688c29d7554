/**
 * Argument parsers of the issue quick actions, pure: they say what an argument refers to (label
 * names and ids, usernames, a milestone, a duration, an emoji); the caller looks the references up.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/services/quick_actions/interpret_service.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/users_extractor.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/spend_time_and_date_separator.rb
 */
import { normalizeEmojiName } from '../award-emoji/emoji-names';
import { parseDuration } from '../time-tracking/duration';

/** Labels an argument names: `~12` ids, `~bug` / `~"to do"` names, or bare names when no `~` is used. */
export interface LabelQuery {
  ids: number[];
  names: string[];
}

const LABEL_REF = /~(?:(\d+)(?![\w?.&-])|([A-Za-z0-9_\-?.&]+(?:::[A-Za-z0-9_\-?.&]+)*)|"([^"]+)")/g;

/**
 * `find_labels`: label references (`~bug ~"to do" ~12`) plus, only when the argument has no `~`,
 * bare or quoted names (`bug "to do"`). Duplicates are kept out; order is first appearance.
 */
export function parseLabels(arg: string | null): LabelQuery {
  const q: LabelQuery = { ids: [], names: [] };
  if (!arg) return q;
  const addName = (n: string) => void (q.names.includes(n) || q.names.push(n));
  for (const m of arg.matchAll(LABEL_REF)) {
    if (m[1] !== undefined) {
      if (!q.ids.includes(Number(m[1]))) q.ids.push(Number(m[1]));
    } else addName(m[2] ?? m[3]);
  }
  if (arg.includes('~')) return q;
  for (const m of arg.matchAll(/"([^"]+)"|([^ ]+)/g)) addName(m[1] ?? m[2]);
  return q;
}

/** GitLab's cap on users one quick action may name (`MAX_QUICK_ACTION_USERS`). */
export const MAX_QUICK_ACTION_USERS = 100;

/** Users an argument names: `me` and usernames (without `@`, `\_` unescaped), in order. */
export interface UserQuery {
  me: boolean;
  /** The references as typed (with `@` when given), for error messages. */
  references: string[];
  usernames: string[];
}

/** `UsersExtractor#args`: split on whitespace and commas, blanks and `and` dropped, duplicates once. */
export function parseUsers(arg: string | null): UserQuery {
  const args = [...new Set((arg ?? '').split(/\s|,/).map((s) => s.trim()).filter((s) => s !== ''))].filter((s) => s !== 'and');
  const references = args.filter((s) => s !== 'me').map((s) => s.replace(/\\_/g, '_'));
  return { me: args.includes('me'), references, usernames: references.map((r) => r.replace(/^@/, '')) };
}

/** Ruby's `Array#to_sentence` in English: `a`, `a and b`, `a, b and c`. */
export function toSentence(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A user as the quick actions need it. */
export interface QuickActionUser {
  id: number;
  username: string;
}

/**
 * Resolves a `UserQuery` against the users found by username (case-insensitive) the way
 * `UsersExtractor#execute` does: `me` first, then the found users; an error message (GitLab's parse
 * error text) when a reference is missing or there are too many.
 */
export function resolveUsers(
  query: UserQuery,
  found: readonly QuickActionUser[],
  currentUser: QuickActionUser,
): { users: QuickActionUser[] } | { error: string } {
  const max = MAX_QUICK_ACTION_USERS;
  if (query.references.length > max) return { error: `Too many references. Quick actions are limited to at most ${max} user references` };
  const wanted = new Set(query.usernames.map((u) => u.toLowerCase()));
  const matched = found.filter((u) => wanted.has(u.username.toLowerCase()));
  const users = [...(query.me ? [currentUser] : []), ...matched];
  if (users.length > max) return { error: `Too many users found. Quick actions are limited to at most ${max} users` };
  const names = new Set(users.map((u) => u.username.toLowerCase()));
  const missing = query.references.filter((r) => !names.has(r.toLowerCase().replace(/^@/, ''))).map((r) => `'${r}'`);
  if (missing.length) return { error: `Failed to find users for ${toSentence(missing)}` };
  return { users };
}

/** A milestone an argument names: by `%iid`, `%title` / `%"a title"`, else by the whole argument as title. */
export interface MilestoneQuery {
  iid: number | null;
  title: string | null;
  /** Fallback lookup: the argument stripped, matched against titles. */
  fallbackTitle: string;
}

/** Parses `/milestone` arguments (`%3`, `%v1.0`, `%"Sprint 4"`, `Sprint 4`). */
export function parseMilestone(arg: string): MilestoneQuery {
  const m = /%(?:(\d+)(?![^\s"])|"([^"]+)"|([^\s"]+))/.exec(arg);
  const fallbackTitle = arg.trim();
  if (!m) return { iid: null, title: null, fallbackTitle };
  return m[1] !== undefined ? { iid: Number(m[1]), title: null, fallbackTitle } : { iid: null, title: m[2] ?? m[3], fallbackTitle };
}

/** `TimeTrackingFormatter.parse(raw, keep_zero: true)` as `/estimate` uses it: unparsable text counts as 0. */
export function parseEstimate(arg: string): number {
  return parseDuration(arg.trim()) ?? 0;
}

/** A parsed `/spend`: signed seconds (null: unparsable), the day it was spent (null = now), a category. */
export interface SpendArgument {
  seconds: number | null;
  date: string | null;
  category: string | null;
}

const SPEND_DATE = /(\d{2,4}[/\-.]\d{1,2}[/\-.]\d{1,2})/;
const SPEND_CATEGORY = /\[timecategory:(.*)\]/;

/** Ruby `Date.parse` of a `y-m-d` style string (two-digit years in 1969–2068); null when invalid. */
export function parseYmd(s: string): string | null {
  const [y, m, d] = s.split(/[/\-.]/);
  let year = Number(y);
  if (y.length === 2) year += year >= 69 ? 1900 : 2000;
  const date = new Date(Date.UTC(year, Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * `SpendTimeAndDateSeparator`: `<duration> [date] [[timecategory:x]]`. A date must parse and be
 * `today` (YYYY-MM-DD in the user's zone) or earlier, else the whole command is ignored (null).
 * `seconds` is null when the duration does not parse (the command then changes nothing).
 */
export function parseSpend(arg: string, today: string): SpendArgument | null {
  if (/^\s*$/.test(arg)) return null;
  const dateText = SPEND_DATE.exec(arg)?.[0];
  const date = dateText === undefined ? null : parseYmd(dateText);
  if (dateText !== undefined && (date === null || date > today)) return null;
  const raw = arg.replace(new RegExp(SPEND_DATE.source, 'g'), '').replace(new RegExp(SPEND_CATEGORY.source, 'g'), '');
  return { seconds: parseDuration(raw.trim()), date, category: SPEND_CATEGORY.exec(arg)?.[1] ?? null };
}

/**
 * `/react` argument: the first `:name:` (not glued to letters, digits or colons) that is a known
 * emoji, as typed (`+1`), or null. `isKnown` may add custom emoji; it defaults to the standard set.
 */
export function parseAward(arg: string, isKnown: (name: string) => boolean = (n) => normalizeEmojiName(n) !== null): string | null {
  for (const m of arg.matchAll(/(?<=[^\p{L}\p{N}:]|^):([^:\s]+):(?=[^\p{L}\p{N}:]|$)/gmu)) {
    if (isKnown(m[1])) return m[1];
  }
  return null;
}
