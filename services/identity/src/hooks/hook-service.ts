import { createHash, randomUUID } from 'node:crypto';
import { HttpError, NotFoundError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { Hook, interpolateUrl } from './hook';
import { executeDelivery } from './execute';
import { hookLogStore } from './hook-log-store';
import { HookWrite, hookStore } from './hook-store';
import { guardHookUrl } from './hook-url';

/** The `group_hooks` plan limit (`plan_limits.group_hooks` default). */
export const GROUP_HOOKS_LIMIT = 50;

/** What a create or update request carries, already type-checked (only given keys are present). */
export interface HookInput extends Omit<HookWrite, 'url_variables' | 'custom_headers'> {
  url_variables?: { key: string; value: string }[];
  custom_headers?: { key: string; value: string }[];
}

const VARIABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_KEY = /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/;

/** Whether key/value pairs satisfy GitLab's JSON schema (≤ 20 entries, key pattern, value length). */
function validPairs(pairs: { key: string; value: string }[], key: RegExp, maxValue: number): boolean {
  return pairs.length <= 20 && pairs.every((p) => key.test(p.key) && p.value.length >= 1 && p.value.length <= maxValue);
}

const toMap = (pairs: { key: string; value: string }[]) => Object.fromEntries(pairs.map((p) => [p.key, p.value]));
const unprocessable = (error: string) => new HttpError(422, { error });

function validateScalars(input: HookInput): void {
  if (input.token && input.token.includes('\n')) throw unprocessable('Token is invalid');
  if (input.custom_webhook_template && input.custom_webhook_template.length > 4096) throw unprocessable('Custom webhook template is too long (maximum is 4096 characters)');
  if (input.name && input.name.length > 255) throw unprocessable('Name is too long (maximum is 255 characters)');
  if (input.description && input.description.length > 2048) throw unprocessable('Description is too long (maximum is 2048 characters)');
  if (input.branch_filter_strategy === 'regex' && input.push_events_branch_filter) {
    try {
      new RegExp(input.push_events_branch_filter);
    } catch {
      throw unprocessable('Invalid branch filter given');
    }
  }
}

function validatePairs(input: HookInput, onUpdate: boolean): void {
  if (input.url_variables && !validPairs(input.url_variables, VARIABLE_KEY, 100)) throw unprocessable('Url variables must be a valid json schema');
  if (input.custom_headers && !validPairs(input.custom_headers, HEADER_KEY, 2048)) {
    throw unprocessable(onUpdate ? 'Custom headers validation failed' : 'Custom headers must be a valid json schema');
  }
}

/** Creates a hook of `groupId` (`WebHooks::CreateService`): 422 for a refused URL or invalid attributes. */
export async function createHook(ictx: IdentityContext, groupId: number, input: HookInput & { url: string }): Promise<Hook> {
  validateScalars(input);
  validatePairs(input, false);
  const urlVariables = toMap(input.url_variables ?? []);
  if (!(await guardHookUrl(ictx.db, input.url, urlVariables)).ok) throw unprocessable('Invalid url given');
  if ((await hookStore.count(ictx.db, groupId)) >= GROUP_HOOKS_LIMIT) throw unprocessable(`Maximum number of group hooks (${GROUP_HOOKS_LIMIT}) exceeded`);
  const strategyClears = input.branch_filter_strategy === 'all_branches' ? { push_events_branch_filter: null } : {};
  return hookStore.insert(ictx.db, { ...input, ...strategyClears, group_id: groupId, url_variables: urlVariables, custom_headers: toMap(input.custom_headers ?? []) });
}

/**
 * Changes a hook: only given attributes; URL variables and custom headers merged by key. A new URL
 * clears the token unless one is sent with it, and drops the variables and headers not sent with it
 * (secrets meant for one receiver never follow the hook to another).
 */
export async function updateHook(ictx: IdentityContext, hook: Hook, input: HookInput): Promise<Hook> {
  validateScalars(input);
  validatePairs(input, true);
  const urlChanged = input.url !== undefined && input.url !== hook.url;
  const keep = (m: Record<string, string>) => (urlChanged ? {} : m);
  const urlVariables = { ...keep(hook.urlVariables), ...toMap(input.url_variables ?? []) };
  const customHeaders = { ...keep(hook.customHeaders), ...toMap(input.custom_headers ?? []) };
  if (input.url !== undefined && !(await guardHookUrl(ictx.db, input.url, urlVariables)).ok) throw unprocessable('Invalid url given');
  const changes: HookWrite = { ...input, url_variables: urlVariables, custom_headers: customHeaders };
  if (urlChanged && input.token === undefined) changes.token = null;
  if (input.branch_filter_strategy === 'all_branches') changes.push_events_branch_filter = null;
  return hookStore.update(ictx.db, hook.id, changes);
}

/** The two key/value maps of a hook that have their own sub-routes. */
export type HookMap = 'url_variables' | 'custom_headers';

const MAPS = {
  url_variables: { key: VARIABLE_KEY, maxValue: 100, notFound: 'URL variable', unset: 'Could not unset variable' },
  custom_headers: { key: HEADER_KEY, maxValue: 2048, notFound: 'Custom header', unset: 'Could not unset custom header' },
} as const;

async function urlStillValid(ictx: IdentityContext, hook: Hook, variables: Record<string, string>): Promise<boolean> {
  return (await guardHookUrl(ictx.db, hook.url, variables)).ok;
}

/** Sets one URL variable or custom header (`PUT …/url_variables/:key`); 422 `Illegal key or value`. */
export async function setHookEntry(ictx: IdentityContext, hook: Hook, map: HookMap, key: string, value: string): Promise<void> {
  const rule = MAPS[map];
  const current = map === 'url_variables' ? hook.urlVariables : hook.customHeaders;
  const next = { ...current, [key]: value };
  const valid = rule.key.test(key) && value.length >= 1 && value.length <= rule.maxValue && Object.keys(next).length <= 20;
  if (!valid || (map === 'url_variables' && !(await urlStillValid(ictx, hook, next)))) throw unprocessable('Illegal key or value');
  await hookStore.update(ictx.db, hook.id, { [map]: next });
}

/** Removes one URL variable or custom header; 404 when absent, 422 when the URL needs the variable. */
export async function unsetHookEntry(ictx: IdentityContext, hook: Hook, map: HookMap, key: string): Promise<void> {
  const rule = MAPS[map];
  const current = map === 'url_variables' ? hook.urlVariables : hook.customHeaders;
  if (current[key] === undefined) throw new NotFoundError(rule.notFound);
  const next = Object.fromEntries(Object.entries(current).filter(([k]) => k !== key));
  if (map === 'url_variables' && !(await urlStillValid(ictx, hook, next))) throw unprocessable(rule.unset);
  await hookStore.update(ictx.db, hook.id, { [map]: next });
}

/**
 * Sends a logged delivery again (`WebHooks::Events::ResendService`): the stored payload with the same
 * `Idempotency-Key`; refused (422) when the hook's URL changed since; the receiver's failure → 422.
 */
export async function resendDelivery(ictx: IdentityContext, hook: Hook, logId: number): Promise<{ response_status: number }> {
  const log = await hookLogStore.find(ictx.db, hook.id, logId);
  if (!log) throw new NotFoundError();
  const currentHash = createHash('sha256').update(interpolateUrl(hook.url, hook.urlVariables) ?? hook.url).digest('hex');
  if (currentHash !== log.url_hash) throw new HttpError(422, { message: 'The hook URL has changed, and this log entry cannot be retried' });
  const delivery = { hookId: hook.id, trigger: log.trigger, payload: log.request_data as Record<string, unknown>, idempotencyKey: log.request_headers['Idempotency-Key'] ?? randomUUID(), eventUuid: randomUUID() };
  const attempt = await executeDelivery(ictx.db, delivery, ictx.publicUrl);
  if (attempt.result === 'skipped') throw new HttpError(422, { message: 'Hook is disabled' });
  if (attempt.result === 'failed') throw new HttpError(422, { message: attempt.message ?? attempt.status });
  return { response_status: Number(attempt.status) };
}
