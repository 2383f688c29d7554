import { createHash } from 'node:crypto';

function sha1(s: string): string {
  return createHash('sha1').update(s, 'utf8').digest('hex');
}

/** JSON with object keys sorted at every level: one text per value, whatever the key order it arrived in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? canonicalJson(v) : String(v);
}

/**
 * GitLab's `Fingerprint.generate` of a given `fingerprint`: an array is flattened and its elements
 * joined as text, anything else taken as text, then SHA-1 hex. Blank (`""`, `[]`, absent) → null.
 */
export function givenFingerprint(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = Array.isArray(value) ? (value.flat(Infinity) as unknown[]).map(text).join('') : text(value);
  return s.trim() === '' ? null : sha1(s);
}

/** Payload keys left out of a derived fingerprint (spec: `generic_alert_fingerprinting`). */
const NOT_FINGERPRINTED = new Set(['start_time', 'end_time', 'hosts']);

/** The fingerprint of a native payload without one: SHA-1 of the payload, less `start_time`, `end_time` and `hosts`, as canonical JSON. */
export function derivedFingerprint(payload: Record<string, unknown>): string {
  const kept = Object.fromEntries(Object.entries(payload).filter(([k]) => !NOT_FINGERPRINTED.has(k)));
  return sha1(canonicalJson(kept));
}

/** The webhook format's fingerprint: SHA-1 of `<startsAt as sent>/<title>/<g0.expr query>`. */
export function webhookFingerprint(startsAt: string, title: string, query: string): string {
  return sha1(`${startsAt}/${title}/${query}`);
}
