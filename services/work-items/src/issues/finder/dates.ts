/** A `YYYY-MM-DD` date, `days` from today in UTC (GitLab's `Date.today` on a UTC instance). */
export function utcDate(days = 0, from = new Date()): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** Monday and Sunday of the current week (UTC). */
export function weekBounds(from = new Date()): [string, string] {
  const dow = (from.getUTCDay() + 6) % 7;
  return [utcDate(-dow, from), utcDate(6 - dow, from)];
}

/** First and last day of the month `offset` months from now (UTC). */
export function monthBounds(offset = 0, from = new Date()): [string, string] {
  const first = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + offset, 1));
  const last = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + offset + 1, 0));
  return [first.toISOString().slice(0, 10), last.toISOString().slice(0, 10)];
}

/** The `[from, to]` range of a `due_date` filter value, or the special cases as strings. */
export function dueDateRange(value: string, now = new Date()): { none: true } | { any: true } | { before: string } | { from: string; to: string } | null {
  switch (value) {
    case '0':
      return { none: true };
    case 'any':
      return { any: true };
    case 'overdue':
      return { before: utcDate(0, now) };
    case 'today':
      return { from: utcDate(0, now), to: utcDate(0, now) };
    case 'tomorrow':
      return { from: utcDate(1, now), to: utcDate(1, now) };
    case 'week': {
      const [from, to] = weekBounds(now);
      return { from, to };
    }
    case 'month': {
      const [from, to] = monthBounds(0, now);
      return { from, to };
    }
    case 'next_month_and_previous_two_weeks':
      return { from: utcDate(-14, now), to: monthBounds(1, now)[1] };
    default:
      return null;
  }
}
