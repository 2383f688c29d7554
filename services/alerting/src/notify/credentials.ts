import { randomBytes } from 'node:crypto';
import { constantTimeEqual, hashToken } from '@anvil/auth';
import type { Integration } from '../integrations/integration-store';

/**
 * The integration key a notify request carries (spec: authentication): `Authorization: Bearer
 * <key>`, else the password of Basic (the user name is ignored; Alertmanager's `basic_auth` sends
 * it empty), else the `token` query parameter; null when there is none.
 */
export function integrationKey(authorization: string | undefined, queryToken: unknown): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? null : decoded.slice(colon + 1) || null;
  }
  return typeof queryToken === 'string' && queryToken !== '' ? queryToken : null;
}

/** Compared against when there is no integration to compare with, so a miss costs what a wrong key costs. */
const ABSENT_DIGEST = hashToken(randomBytes(16).toString('hex'));

/**
 * Whether `key` opens `integration`: it exists, is active and the key's digest matches its stored
 * one. Every case hashes the key and compares two digests in constant time, so an unknown project,
 * an unknown or inactive integration and a wrong key cannot be told apart by their timing.
 */
export function keyOpens(integration: Integration | undefined, key: string | null): boolean {
  const digestMatches = constantTimeEqual(hashToken(key ?? ''), integration ? integration.tokenDigest : ABSENT_DIGEST);
  return digestMatches && key !== null && !!integration && integration.active;
}
