import type { Fleet } from '@anvil/testing';

/** A JSON call through the fleet's gateway as `token`, for setting a test up: any 4xx or 5xx throws with the answer. */
export async function call(fleet: Fleet, token: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A new user, made by the fleet's administrator, with an `api` personal access token. */
export async function userWithToken(fleet: Fleet, username: string): Promise<{ id: number; token: string }> {
  const u = await call(fleet, fleet.adminToken, 'POST', '/users', { username, name: username, email: `${username}@example.com`, password: 'Sup3r-secret-pw!', skip_confirmation: true });
  const t = await call(fleet, fleet.adminToken, 'POST', `/users/${u.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] });
  return { id: u.id as number, token: t.token as string };
}
