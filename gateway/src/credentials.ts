import type { IncomingHttpHeaders } from 'node:http';
import { ConanJwtVerifier, conanJwtSecret } from '@anvil/auth';
import { type ConfigOf, str, secret } from '@anvil/config';
import type { CredentialKind } from './routes';

/**
 * What the caller presented, before identity is asked: a personal access token, a JWT whose
 * signature and expiry verified (naming a token id and its user), or Basic's password.
 */
export type Credential =
  | { kind: 'pat'; token: string }
  | { kind: 'jwt'; tokenId: number; userId: number }
  | { kind: 'basic'; password: string }
  | { kind: 'none' };

const NONE: Credential = { kind: 'none' };

/** The settings this module reads, part of the gateway's configuration schema. */
export const credentialSettings = {
  /** HS256 secret of the registry's Conan JWTs (required; the registry holds the same). */
  CONAN_JWT_SECRET: secret(),
};

/** Throws, naming the variable, when a required credential setting is missing. */
export function requireCredentialSettings(config: ConfigOf<typeof credentialSettings>): void {
  conanJwtSecret(config, 'gateway');
}

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

/** Reads a request's credential as its route's entry says (`CredentialKind`). */
export class CredentialReader {
  /** Conan JWTs whose signature verified, remembered (the token behind one is still resolved on every use). */
  private readonly jwts: ConanJwtVerifier;

  constructor(config: ConfigOf<typeof credentialSettings>) {
    this.jwts = new ConanJwtVerifier(config.CONAN_JWT_SECRET);
  }

  /** The credential that counts on a route of `kind`; NONE when nothing does. */
  read(kind: CredentialKind, headers: IncomingHttpHeaders, query: QueryParams): Credential {
    return kind === 'conan' ? this.conan(headers) : apiCredential(headers, query);
  }

  /**
   * What GitLab's Conan routes read instead of the standard token methods: a Bearer token is the
   * registry's JWT (a token that is not a valid one counts as none), and Basic carries a token as its
   * password (the username is not looked at). `PRIVATE-TOKEN` and the token parameters count as none.
   */
  private conan(headers: IncomingHttpHeaders): Credential {
    const { scheme, value } = authorization(headers);
    if (!value) return NONE;
    if (scheme === 'bearer') {
      const claims = this.jwts.verify(value);
      return claims ? { kind: 'jwt', tokenId: claims.access_token, userId: claims.user_id } : NONE;
    }
    if (scheme !== 'basic') return NONE;
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? NONE : { kind: 'basic', password: decoded.slice(colon + 1) };
  }
}

/**
 * The credential GitLab's API guard reads: `PRIVATE-TOKEN`, `private_token`/`access_token` params,
 * `Authorization: Bearer`; Basic is ignored, as GitLab does.
 */
function apiCredential(headers: IncomingHttpHeaders, query: QueryParams): Credential {
  const pt = header(headers, 'private-token') || query.get('private_token') || query.get('access_token');
  if (pt) return { kind: 'pat', token: pt.trim() };
  const { scheme, value } = authorization(headers);
  return scheme === 'bearer' && value ? { kind: 'pat', token: value } : NONE;
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
