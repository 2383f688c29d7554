/**
 * Durations as GitLab reads them (`start_in`, `timeout`, `artifacts:expire_in`) with ChronicDuration's
 * grammar: a bare number is seconds, otherwise number-unit pairs (`1h 30m`, `3 mins 4 sec`, `2 days`,
 * `1 week`). Pure.
 */

const UNITS: [RegExp, number][] = [
  [/^(s|sec|secs|second|seconds)$/, 1],
  [/^(m|min|mins|minute|minutes)$/, 60],
  [/^(h|hr|hrs|hour|hours)$/, 3600],
  [/^(d|day|days)$/, 86400],
  [/^(w|wk|wks|week|weeks)$/, 604800],
  [/^(mo|mos|month|months)$/, 2592000],
  [/^(y|yr|yrs|year|years)$/, 31557600],
];

/** Seconds, or null when the text is not a duration. */
export function parseDuration(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase().replace(/\band\b/g, ' ').replace(/,/g, ' ');
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.floor(Number(text));
  const clock = /^(\d+):(\d{1,2})(?::(\d{1,2}))?$/.exec(text);
  if (clock) return clock[3] === undefined ? Number(clock[1]) * 60 + Number(clock[2]) : Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  const pairs = text.match(/(\d+(?:\.\d+)?)\s*([a-z]+)/g);
  if (!pairs || pairs.join('').replace(/\s/g, '') !== text.replace(/\s/g, '')) return null;
  let total = 0;
  for (const pair of pairs) {
    const [, num, unit] = /(\d+(?:\.\d+)?)\s*([a-z]+)/.exec(pair)!;
    const factor = UNITS.find(([re]) => re.test(unit));
    if (!factor) return null;
    total += Number(num) * factor[1];
  }
  return Math.floor(total);
}

/** One week, the longest `start_in` GitLab accepts. */
export const START_IN_LIMIT_SECONDS = 604800;
/** One month, the longest job `timeout` GitLab's config accepts. */
export const TIMEOUT_LIMIT_SECONDS = 2592000;
