/**
 * The `/due` argument: the part of `Chronic.parse(text).to_date` people type, relative to an
 * injected `today`. Chronic's default context is the future: a bare weekday is the next such day
 * after today (`this`/`next` give the same), a month and day without a year is this year unless the
 * month is already over, `next week`/`next month` is the middle of that span (Chronic's guess).
 * Unrecognised text yields null ("Failed to set due date because the date format is invalid.").
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/issue_actions.rb
 * https://github.com/mojombo/chronic (lib/chronic/repeaters/repeater_day_name.rb, repeater_month_name.rb)
 */
import { parseYmd } from './arguments';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

type Ymd = { y: number; m: number; d: number };

const fromUtc = (t: Date): Ymd => ({ y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() });
const utc = ({ y, m, d }: Ymd) => new Date(Date.UTC(y, m - 1, d));
const iso = (v: Ymd) => utc(v).toISOString().slice(0, 10);
const addDays = (v: Ymd, n: number) => fromUtc(new Date(utc(v).getTime() + n * 86_400_000));

/** Calendar months ahead, clamped to the month's last day like Ruby's `Date#>>`. */
function addMonths(v: Ymd, n: number): Ymd {
  const first = new Date(Date.UTC(v.y, v.m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return { y: first.getUTCFullYear(), m: first.getUTCMonth() + 1, d: Math.min(v.d, last) };
}

function monthIndex(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return null;
  const i = MONTHS.findIndex((m) => m.startsWith(w) && (w.length === 3 || m === w || (w === 'sept' && m === 'september')));
  return i < 0 ? null : i + 1;
}

function weekdayIndex(word: string): number | null {
  const w = word.toLowerCase();
  const i = WEEKDAYS.findIndex((d) => d === w || d.slice(0, 3) === w || (w.length >= 3 && d.startsWith(w)));
  return i < 0 ? null : i;
}

function validDate(y: number, m: number, d: number): Ymd | null {
  const s = parseYmd(`${y}-${m}-${d}`);
  return s === null ? null : { y, m, d };
}

/** `Dec 31`, `December 31st, 2024`, `31 December 2024`, `31st of Dec`. */
function monthDay(text: string, today: Ymd): Ymd | null {
  const md = /^([a-z]+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?$/.exec(text);
  const dm = /^(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+\.?)(?:,?\s+(\d{4}))?$/.exec(text);
  const [monthWord, day, year] = md ? [md[1], md[2], md[3]] : dm ? [dm[2], dm[1], dm[3]] : [];
  const month = monthWord === undefined ? null : monthIndex(monthWord);
  if (month === null) return null;
  const y = year !== undefined ? Number(year) : month >= today.m ? today.y : today.y + 1;
  return validDate(y, month, Number(day));
}

function relative(text: string, today: Ymd): Ymd | null {
  const m = /^in\s+(\d+|[a-z]+)\s+(day|week|month|year)s?$/.exec(text) ?? /^(\d+|[a-z]+)\s+(day|week|month|year)s?\s+from\s+(?:now|today)$/.exec(text);
  if (!m) return null;
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1]];
  if (n === undefined) return null;
  if (m[2] === 'day') return addDays(today, n);
  if (m[2] === 'week') return addDays(today, 7 * n);
  return addMonths(today, m[2] === 'month' ? n : 12 * n);
}

/** Middle of next week (weeks start on Sunday) or of next month, as Chronic guesses a span. */
function nextSpan(unit: string, today: Ymd): Ymd | null {
  if (unit === 'week') {
    const sunday = addDays(today, 7 - utc(today).getUTCDay());
    return addDays(sunday, 3);
  }
  if (unit === 'month') {
    const start = addMonths({ ...today, d: 1 }, 1);
    const days = new Date(Date.UTC(start.y, start.m, 0)).getUTCDate();
    return addDays(start, Math.floor(days / 2));
  }
  return null;
}

function numeric(text: string): Ymd | null {
  const ymd = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(text);
  if (ymd) return validDate(Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
  const mdy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  return mdy ? validDate(Number(mdy[3]), Number(mdy[1]), Number(mdy[2])) : null;
}

/** Resolves the words that do not need a number or a month name. */
function word(text: string, today: Ymd): Ymd | null {
  if (text === 'today' || text === 'now') return today;
  if (text === 'tomorrow') return addDays(today, 1);
  if (text === 'yesterday') return addDays(today, -1);
  const next = /^next\s+(week|month|year)$/.exec(text);
  if (next) return next[1] === 'year' ? addMonths(today, 12) : nextSpan(next[1], today);
  const day = /^(?:(?:this|next|on)\s+)?([a-z]+)$/.exec(text);
  const wd = day ? weekdayIndex(day[1]) : null;
  if (wd === null) return null;
  const ahead = ((wd - utc(today).getUTCDay() + 6) % 7) + 1;
  return addDays(today, ahead);
}

/**
 * The due date `text` means on `today` (YYYY-MM-DD, the user's day), as YYYY-MM-DD, or null when
 * the text is not a date this parser knows.
 */
export function parseDueDate(text: string, today: string): string | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const base = parseYmd(today);
  if (!t || base === null) return null;
  const [y, m, d] = base.split('-').map(Number);
  const now = { y, m, d };
  const found = numeric(t) ?? word(t, now) ?? relative(t, now) ?? monthDay(t, now);
  return found ? iso(found) : null;
}

/** `Date#strftime('%b %-d, %Y')` for a YYYY-MM-DD date: `Dec 31, 2024`. */
export function formatShortDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${MONTHS[m - 1].slice(0, 1).toUpperCase()}${MONTHS[m - 1].slice(1, 3)} ${d}, ${y}`;
}

/** `Date#to_s(:long)` for a YYYY-MM-DD date: `September 20, 2018`. */
export function formatLongDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${MONTHS[m - 1][0].toUpperCase()}${MONTHS[m - 1].slice(1)} ${d}, ${y}`;
}
