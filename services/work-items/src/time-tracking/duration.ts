/**
 * GitLab's time-tracking durations (`Gitlab::TimeTrackingFormatter` over gitlab-chronic-duration 0.12):
 * a working day is 8 hours, a month 20 days, a week a quarter month (5 days); a year stays
 * 365.25 × 24 h. A bare number means hours. Pure: no I/O, no state.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
/** Working hours per day and days per month GitLab uses for time tracking. */
export const HOURS_PER_DAY = 8;
export const DAYS_PER_MONTH = 20;
const FULL_WEEKS_PER_MONTH = 4;
const DAYS_PER_WEEK = DAYS_PER_MONTH / FULL_WEEKS_PER_MONTH;
const DAY = HOURS_PER_DAY * HOUR;
const WEEK = DAYS_PER_WEEK * DAY;
const MONTH = DAYS_PER_MONTH * DAY;
/** 365.25 days of 24 hours: years are not scaled to working time. */
const YEAR = 31_557_600;

type Unit = 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years';

const UNIT_SECONDS: Record<Unit, number> = { seconds: 1, minutes: MINUTE, hours: HOUR, days: DAY, weeks: WEEK, months: MONTH, years: YEAR };

const WORDS: Record<string, Unit> = {
  seconds: 'seconds', second: 'seconds', secs: 'seconds', sec: 'seconds', s: 'seconds',
  minutes: 'minutes', minute: 'minutes', mins: 'minutes', min: 'minutes', m: 'minutes',
  hours: 'hours', hour: 'hours', hrs: 'hours', hr: 'hours', h: 'hours',
  days: 'days', day: 'days', dy: 'days', d: 'days',
  weeks: 'weeks', week: 'weeks', wks: 'weeks', wk: 'weeks', w: 'weeks',
  months: 'months', month: 'months', mos: 'months', mo: 'months',
  years: 'years', year: 'years', yrs: 'years', yr: 'years', y: 'years',
};

/** `h:m:s`-style input (up to six colon-separated parts, no weeks). */
const CHRONO = /^[0-9]+:[0-9]+(:[0-9]+){0,4}(\.[0-9]*)?$/;
const CHRONO_UNITS: Unit[] = ['seconds', 'minutes', 'hours', 'days', 'months', 'years'];
const NUMBER = /[0-9]*\.?[0-9]+/g;
const HAS_NUMBER = /[0-9]*\.?[0-9]+/;

function expandChrono(s: string): string {
  const compact = s.replace(/ /g, '');
  if (!CHRONO.test(compact)) return s;
  const parts = compact.split(':').reverse();
  return parts.map((v, i) => `${v} ${CHRONO_UNITS[i]}`).reverse().join(' ');
}

/** Numbers and unit names in order; every other word is dropped (`and`, `with`, `plus`, junk). */
function tokens(input: string): string[] {
  const spaced = expandChrono(input.toLowerCase()).replace(NUMBER, (n) => ` ${n} `).replace(/ +/g, ' ').trim();
  const out: string[] = [];
  for (const word of spaced.split(/\s+/)) {
    if (!word) continue;
    if (HAS_NUMBER.test(word)) {
      out.push(word);
      continue;
    }
    const unit = WORDS[word.replace(/^,/, '').replace(/,$/, '')];
    if (unit) out.push(unit);
  }
  if (out.length && out[0] in UNIT_SECONDS) out.unshift('1');
  return out;
}

/** The value of `input` in seconds as ChronicDuration computes it (may be fractional); 0 for nothing. */
function chronicSeconds(input: string): number {
  const words = tokens(input);
  let total = 0;
  words.forEach((word, k) => {
    if (!HAS_NUMBER.test(word)) return;
    const unit = (words[k + 1] ?? 'hours') as Unit;
    total += Number(word) * (UNIT_SECONDS[unit] ?? 0);
  });
  return total;
}

/**
 * Parses a human duration (`3h30m`, `1w 2d`, `1.5h`, `-2h`, `1:30`, `3` = 3 hours) into whole seconds.
 * Returns null when nothing parses or the total is zero (GitLab treats both as invalid).
 */
export function parseDuration(input: string): number | null {
  if (typeof input !== 'string') return null;
  const negative = input.startsWith('-');
  const seconds = chronicSeconds(negative ? input.slice(1) : input);
  if (!Number.isFinite(seconds) || seconds === 0) return null;
  const whole = Math.trunc(seconds);
  return negative ? -whole : whole;
}

interface Parts {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function split(total: number, limitToHours: boolean): Parts {
  const p: Parts = { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: total };
  if (total >= YEAR && total % YEAR < total % MONTH) {
    const rest = total % YEAR;
    return { years: Math.floor(total / YEAR), months: Math.floor(rest / MONTH), weeks: 0, days: Math.floor((rest % MONTH) / DAY), hours: Math.floor((rest % DAY) / HOUR), minutes: Math.floor((rest % HOUR) / MINUTE), seconds: rest % MINUTE };
  }
  if (total < MINUTE) return p;
  p.minutes = Math.floor(total / MINUTE);
  p.seconds = total % MINUTE;
  if (p.minutes < 60) return p;
  p.hours = Math.floor(p.minutes / 60);
  p.minutes %= 60;
  if (limitToHours || p.hours < HOURS_PER_DAY) return p;
  p.days = Math.floor(p.hours / HOURS_PER_DAY);
  p.hours %= HOURS_PER_DAY;
  if (p.days < DAYS_PER_WEEK) return p;
  p.weeks = Math.floor(p.days / DAYS_PER_WEEK);
  p.days %= DAYS_PER_WEEK;
  if (p.weeks < FULL_WEEKS_PER_MONTH) return p;
  p.months = Math.floor(p.weeks / FULL_WEEKS_PER_MONTH);
  p.weeks %= FULL_WEEKS_PER_MONTH;
  return p;
}

const SUFFIX: [keyof Parts, string][] = [['years', 'y'], ['months', 'mo'], ['weeks', 'w'], ['days', 'd'], ['hours', 'h'], ['minutes', 'm'], ['seconds', 's']];

/**
 * Formats whole seconds as GitLab's `human_*` fields do: `1w 2d 3h`, `3h 30m`, `1mo`, `-2h`;
 * zero parts omitted; 0 → null. With `limitToHours` (the instance setting) days and up are not formed.
 */
export function formatDuration(seconds: number, opts: { limitToHours?: boolean } = {}): string | null {
  const total = Math.trunc(seconds);
  if (total === 0 || !Number.isFinite(total)) return null;
  if (total < 0) return `-${formatDuration(-total, opts)}`;
  const parts = split(total, opts.limitToHours ?? false);
  return SUFFIX.filter(([k]) => parts[k] !== 0).map(([k, s]) => `${parts[k]}${s}`).join(' ');
}
