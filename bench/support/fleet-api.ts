import type { Fleet } from '@anvil/testing';

/** A call through the fleet's gateway as `token`; throws on a 4xx/5xx with the body. */
export async function api(fleet: Fleet, token: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, { method, headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Polls `check` every 200 ms until it answers true; throws after `ms`. */
export async function waitFor(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
