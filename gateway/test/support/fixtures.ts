import { createHmac, randomBytes } from 'node:crypto';
import request from 'supertest';

/** A user created through the gateway, with its id and one token per requested scope set. */
export interface TestUser {
  id: number;
  username: string;
  password: string;
  tokens: Record<string, { id: number; token: string }>;
}

/** Calls the gateway as `token` and fails loudly on an unexpected status. */
export async function api<T = Record<string, unknown>>(gw: string, token: string, method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object, status?: number): Promise<T> {
  const r = request(gw)[method](`/api/v4${path}`).set('PRIVATE-TOKEN', token);
  const res = await (body ? r.send(body) : r);
  if (status ? res.status !== status : res.status >= 400) throw new Error(`${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** Creates a user (as the administrator) and a token for each named scope set. */
export async function createUser(gw: string, admin: string, name: string, scopeSets: Record<string, string[]>, extra: object = {}): Promise<TestUser> {
  const username = `${name}_${randomBytes(3).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const user = await api<{ id: number }>(gw, admin, 'post', '/users', { username, name, email: `${username}@example.com`, password, skip_confirmation: true, ...extra });
  const tokens: TestUser['tokens'] = {};
  for (const [key, scopes] of Object.entries(scopeSets)) {
    const t = await api<{ id: number; token: string }>(gw, admin, 'post', `/users/${user.id}/personal_access_tokens`, { name: key, scopes });
    tokens[key] = { id: t.id, token: t.token };
  }
  return { id: user.id, username, password, tokens };
}

/** An HS256 JWT like the registry mints (`access_token` = token id, `user_id`, `exp`). */
/** An `Authorization: Basic` value for `user:secret`. */
export function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}

export function registryJwt(secret: string, claims: Record<string, unknown>): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Polls `check` every 50 ms until it returns true; resolves with the elapsed ms, rejects after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 4000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met within ${ms} ms`);
}
