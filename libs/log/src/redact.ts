/** What a redacted value is replaced with. */
export const CENSOR = '[REDACTED]';

/**
 * Keys whose values never reach a log line, compared in lower case: GitLab's credential headers,
 * the fleet's internal ones, and credential fields of request bodies and query strings.
 */
const SECRET_KEYS = new Set([
  'authorization', 'cookie', 'private-token', 'job-token', 'x-anvil-context', 'x-anvil-internal-token',
  'password', 'token', 'private_token', 'access_token', 'job_token',
]);

/** Fields that hold a path or URL: the credentials in their query are censored. */
const URL_KEYS = new Set(['path', 'url']);

/** How deep below a logged object keys are looked at (`{ req: { headers: { authorization } } }` is 2). */
const MAX_DEPTH = 3;

const SECRET_QUERY = /([?&](?:private_token|access_token|job_token)=)[^&#]*/gi;
const MAY_HOLD_TOKEN = /_token=/i;

/** `url` with the values of its `private_token`, `access_token` and `job_token` query parameters censored. */
export function scrubUrl(url: string): string {
  return MAY_HOLD_TOKEN.test(url) ? url.replace(SECRET_QUERY, `$1${CENSOR}`) : url;
}

function isSecret(key: string): boolean {
  return SECRET_KEYS.has(key) || SECRET_KEYS.has(key.toLowerCase());
}

function isWalkable(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** `value` as it may be logged under `key`, at `depth` below the logged object. */
function redactValue(key: string, value: unknown, depth: number): unknown {
  if (isSecret(key)) return CENSOR;
  if (typeof value === 'string') return URL_KEYS.has(key) ? scrubUrl(value) : value;
  return depth < MAX_DEPTH && isWalkable(value) ? redact(value, depth + 1) : value;
}

/**
 * `fields` with the value of every secret key (any case: `PRIVATE-TOKEN`, `authorization`, `password`,
 * `token`, ...) censored down to three levels (plain objects and arrays), and the credentials in
 * the query of `path` and `url` strings censored. `fields` itself is never changed: what differs is
 * copied, what does not is shared.
 */
export function redact<T extends Record<string, unknown> | unknown[]>(fields: T, depth = 0): T {
  let out: T = fields;
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    const safe = redactValue(key, value, depth);
    if (safe === value) continue;
    if (out === fields) out = (Array.isArray(fields) ? [...fields] : { ...fields }) as T;
    (out as Record<string, unknown>)[key] = safe;
  }
  return out;
}
