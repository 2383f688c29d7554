/** What a redacted value is replaced with. */
export const CENSOR = '[REDACTED]';

/**
 * Field and header names whose values never reach a log line: GitLab's credential headers (as Node
 * lower-cases them, and as clients spell them), credential fields of request bodies.
 */
const SECRET_KEYS = [
  'authorization', 'Authorization', 'cookie', 'private-token', 'PRIVATE-TOKEN', 'job-token', 'JOB-TOKEN',
  'x-anvil-context', 'x-anvil-internal-token',
  'password', 'token', 'private_token', 'access_token', 'job_token',
];

function at(prefix: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${prefix}${prefix ? '.' : ''}${key}` : `${prefix}["${key}"]`;
}

/**
 * pino `redact` paths for the secret keys at the top of a logged object and two levels below it
 * (`{ password }`, `{ user: { password } }`, `{ req: { headers: { authorization } } }`).
 */
export const REDACT_PATHS: string[] = ['', '*', '*.*'].flatMap((prefix) => SECRET_KEYS.map((k) => at(prefix, k)));

const SECRET_QUERY = /([?&](?:private_token|access_token|job_token)=)[^&#]*/gi;
const MAY_HOLD_TOKEN = /_token=/i;

/** `url` with the values of its `private_token`, `access_token` and `job_token` query parameters censored. */
export function scrubUrl(url: string): string {
  return MAY_HOLD_TOKEN.test(url) ? url.replace(SECRET_QUERY, `$1${CENSOR}`) : url;
}

/** Fields that hold a path or URL: their query's credentials are censored before they are written. */
const URL_FIELDS = ['path', 'url'] as const;

/** pino's `formatters.log`: a copy of `obj` with credentials scrubbed from its `path` and `url` (the object itself untouched). */
export function scrubFields(obj: Record<string, unknown>): Record<string, unknown> {
  let out = obj;
  for (const k of URL_FIELDS) {
    const v = obj[k];
    if (typeof v === 'string' && MAY_HOLD_TOKEN.test(v)) {
      if (out === obj) out = { ...obj };
      out[k] = scrubUrl(v);
    }
  }
  return out;
}
