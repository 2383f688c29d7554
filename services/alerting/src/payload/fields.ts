import { NotifyRefusal } from './refusal';

/**
 * A payload's text attribute: a string (numbers and booleans as text) cut to `max` characters;
 * blank or absent → null (GitLab's `presence`); an object or array where text belongs → 400.
 */
export function textField(value: unknown, max: number): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') throw new NotifyRefusal(400);
  const s = String(value);
  return s.trim() === '' ? null : [...s].slice(0, max).join('');
}

/** A JSON object attribute (`labels`, `annotations`): absent → `{}`, anything but an object → 400. */
export function objectField(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new NotifyRefusal(400);
  return value as Record<string, unknown>;
}

/** A time: an ISO 8601 (or any parsable) string, or epoch milliseconds; unparsable → null. */
export function timeField(value: unknown): Date | null {
  if (typeof value === 'number' && Number.isFinite(value)) return validDate(new Date(value));
  if (typeof value !== 'string' || value.trim() === '') return null;
  return validDate(new Date(value));
}

function validDate(d: Date): Date | null {
  const t = d.getTime();
  return Number.isNaN(t) || d.getUTCFullYear() < 1000 || d.getUTCFullYear() > 9999 ? null : d;
}

/** GitLab's cap on an alert's hosts: their joined length stays within 255 characters (later hosts cut, then dropped). */
export const HOSTS_MAX = 255;

/** `hosts` as an array of strings: a string or a (nested) array of scalars, capped at `HOSTS_MAX` characters in all. */
export function hostsField(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? (value.flat(Infinity) as unknown[]) : [value];
  const hosts: string[] = [];
  let left = HOSTS_MAX;
  for (const item of items) {
    if (item !== null && typeof item === 'object') throw new NotifyRefusal(400);
    if (item === null || left <= 0) continue;
    const host = [...String(item)].slice(0, left).join('');
    if (host === '') continue;
    hosts.push(host);
    left -= host.length;
  }
  return hosts;
}
