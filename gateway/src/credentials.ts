import type { IncomingHttpHeaders } from 'node:http';
import { looksLikeJwt } from './jwt';

/** What the caller presented, before anything is looked up. */
export type Credential =
  | { kind: 'pat'; token: string }
  | { kind: 'jwt'; token: string }
  | { kind: 'basic'; login: string; password: string }
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
 * params, `Authorization: Bearer`. On registry routes a Bearer JWT is the registry's token and Basic
 * (`username:token` or `username:password`) is accepted; elsewhere Basic is ignored, as GitLab does.
 */
export function readCredential(headers: IncomingHttpHeaders, query: QueryParams, registry: boolean): Credential {
  const pt = header(headers, 'private-token') || query.get('private_token') || query.get('access_token');
  if (pt) return { kind: 'pat', token: pt.trim() };
  const authz = header(headers, 'authorization');
  if (!authz) return NONE;
  const space = authz.indexOf(' ');
  const scheme = (space > 0 ? authz.slice(0, space) : authz).toLowerCase();
  const value = space > 0 ? authz.slice(space + 1).trim() : '';
  if (scheme === 'bearer' && value) {
    return registry && looksLikeJwt(value) ? { kind: 'jwt', token: value } : { kind: 'pat', token: value };
  }
  if (scheme === 'basic' && value && registry) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return NONE;
    return { kind: 'basic', login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return NONE;
}

/** The `sudo` target (query parameter first, then the `Sudo` header), or null. */
export function readSudo(headers: IncomingHttpHeaders, query: QueryParams): string | null {
  const v = query.get('sudo') ?? header(headers, 'sudo');
  return v ? v.trim() || null : null;
}
