import type { IncomingHttpHeaders } from 'node:http';

/** What the caller presented, before anything is looked up. */
export type Credential =
  | { kind: 'pat'; token: string }
  | { kind: 'jwt'; token: string }
  | { kind: 'basic'; password: string }
  | { kind: 'none' };

const NONE: Credential = { kind: 'none' };

/**
 * The query string's few parameters the gateway reads (`private_token`, `access_token`, `sudo`),
 * parsed only when the raw query mentions one of them.
 */
export class QueryParams {
  private parsed?: URLSearchParams;
  constructor(private readonly raw: string) {}

  get(name: string): string | null {
    if (!this.raw || !this.raw.includes(name)) return null;
    this.parsed ??= new URLSearchParams(this.raw);
    return this.parsed.get(name);
  }
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Reads the credential GitLab's API guard would: `PRIVATE-TOKEN`, `private_token`/`access_token`
 * params, `Authorization: Bearer`; Basic is ignored, as GitLab does. Registry routes read their own
 * (`registryCredential`).
 */
export function readCredential(headers: IncomingHttpHeaders, query: QueryParams, registry: boolean): Credential {
  if (registry) return registryCredential(headers);
  const pt = header(headers, 'private-token') || query.get('private_token') || query.get('access_token');
  if (pt) return { kind: 'pat', token: pt.trim() };
  const { scheme, value } = authorization(headers);
  return scheme === 'bearer' && value ? { kind: 'pat', token: value } : NONE;
}

/**
 * What GitLab's Conan routes read instead of the standard token methods: a Bearer token is the
 * registry's JWT (a token that is not one counts as none), and Basic carries a token as its
 * password (the username is not looked at). `PRIVATE-TOKEN` and the token parameters count as none.
 */
function registryCredential(headers: IncomingHttpHeaders): Credential {
  const { scheme, value } = authorization(headers);
  if (!value) return NONE;
  if (scheme === 'bearer') return { kind: 'jwt', token: value };
  if (scheme !== 'basic') return NONE;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? NONE : { kind: 'basic', password: decoded.slice(colon + 1) };
}

/** The `Authorization` header's scheme (lower case) and value, both empty when it is absent. */
function authorization(headers: IncomingHttpHeaders): { scheme: string; value: string } {
  const authz = header(headers, 'authorization');
  if (!authz) return { scheme: '', value: '' };
  const space = authz.indexOf(' ');
  return {
    scheme: (space > 0 ? authz.slice(0, space) : authz).toLowerCase(),
    value: space > 0 ? authz.slice(space + 1).trim() : '',
  };
}

/** The `sudo` target (query parameter first, then the `Sudo` header), or null. */
export function readSudo(headers: IncomingHttpHeaders, query: QueryParams): string | null {
  const v = query.get('sudo') ?? header(headers, 'sudo');
  return v ? v.trim() || null : null;
}
