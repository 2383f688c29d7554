import { settingsStore } from '../settings/application-settings';
import type { Db } from '../sql';
import { interpolateUrl } from './hook';
import { checkUrl, GuardResult, Resolver } from './url-guard';

/** Checks a hook's (interpolated) URL against the instance settings; the guard's verdict. */
export async function guardHookUrl(db: Db, url: string, variables: Record<string, string>, resolve?: Resolver): Promise<GuardResult> {
  const interpolated = interpolateUrl(url, variables);
  if (interpolated === null) return { ok: false, reason: 'Invalid URL template' };
  const s = await settingsStore.get(db);
  return checkUrl(interpolated, { allowLocal: s.allow_local_requests_from_web_hooks_and_services, allowlist: s.outbound_local_requests_whitelist, resolve });
}
