/**
 * GitLab's fuzzy search terms (`Gitlab::SQL::Pattern`): quoted phrases stay whole, words shorter
 * than 3 characters are dropped; when nothing is left the whole query must match exactly.
 */
export const MIN_CHARS_FOR_PARTIAL_MATCHING = 3;

/** The words to substring-match (all must match), or null for the exact-match fallback. */
export function fuzzyWords(query: string): string[] | null {
  const squished = query.trim().replace(/\s+/g, ' ');
  if (!squished) return null;
  const words: string[] = [];
  const rest = squished.replace(/"([^"]+)"/g, (_m, phrase: string) => {
    words.push(phrase);
    return ' ';
  });
  for (const w of rest.split(' ')) if (w) words.push(w);
  const kept = words.filter((w) => w.length >= MIN_CHARS_FOR_PARTIAL_MATCHING);
  return kept.length ? kept : null;
}

/** The columns `in` selects (`title`, `description` or both; default both). */
export function searchColumns(inParam: string | undefined): ('title' | 'description')[] {
  const wanted = (inParam ?? 'title,description').split(',').map((s) => s.trim().toLowerCase());
  const cols = (['title', 'description'] as const).filter((c) => wanted.includes(c));
  return cols.length ? [...cols] : ['title', 'description'];
}

/** Escapes `%`, `_` and `\` for a LIKE pattern. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
