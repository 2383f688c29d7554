import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../sql';
import { afterFailure, alertStatus, Hook, interpolateUrl } from './hook';
import { hookLogStore } from './hook-log-store';
import { hookStore } from './hook-store';
import { guardHookUrl } from './hook-url';
import { Outcome, post } from './transport';
import type { Resolver } from './url-guard';

/** The version this API answers as (`User-Agent: GitLab/<version>`). */
export const GITLAB_VERSION = '18.2.0';

/** One queued delivery: a hook, its scope, the payload and the ids kept across retries. */
export interface Delivery {
  hookId: number;
  trigger: string;
  payload: Record<string, unknown>;
  idempotencyKey: string;
  eventUuid: string;
}

/** What an attempt came to: ok (2xx/3xx), failed (worth a retry), or skipped (hook not executable or gone); with the logged status. */
export interface AttemptResult {
  result: 'ok' | 'failed' | 'skipped';
  /** The receiver's status code, `internal error`, or null when skipped. */
  status: string | null;
  /** The receiver's body or the transport error (what a failed resend reports). */
  message: string | null;
}

/** `issue_hooks` → `Issue Hook` (`hook_name.singularize.titleize`). */
export function eventHeader(trigger: string): string {
  return trigger.replace(/_hooks$/, '').split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') + ' Hook';
}

function render(template: string | null, payload: Record<string, unknown>): string {
  if (!template) return JSON.stringify(payload);
  const filled = template.replace(/\{\{([^}]+)\}\}/g, (_, path: string) => {
    const v = path.trim().split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), payload);
    return typeof v === 'string' ? JSON.stringify(v).slice(1, -1) : JSON.stringify(v ?? null);
  });
  try {
    return JSON.stringify(JSON.parse(filled));
  } catch (e) {
    throw new Error(`Error while parsing rendered custom webhook template: ${(e as Error).message}`);
  }
}

function requestHeaders(hook: Hook, d: Delivery, instanceUrl: string): Record<string, string> {
  const builtIn: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${GITLAB_VERSION}`,
    'Idempotency-Key': d.idempotencyKey,
    'X-Gitlab-Event': eventHeader(d.trigger),
    'X-Gitlab-Webhook-UUID': randomUUID(),
    'X-Gitlab-Instance': instanceUrl.replace(/\/$/, ''),
    'X-Gitlab-Event-UUID': d.eventUuid,
  };
  if (hook.token) builtIn['X-Gitlab-Token'] = hook.token.replace(/[\r\n]/g, '');
  return { ...hook.customHeaders, ...builtIn };
}

function logged(headers: Record<string, string>, hook: Hook): Record<string, string> {
  const out = { ...headers };
  if (out['X-Gitlab-Token']) out['X-Gitlab-Token'] = '[REDACTED]';
  for (const k of Object.keys(hook.customHeaders)) if (out[k] === hook.customHeaders[k]) out[k] = '[REDACTED]';
  return out;
}

/** Userinfo moves from the URL into Basic auth (as GitLab sends it). */
function withBasicAuth(url: URL, headers: Record<string, string>): void {
  if (!url.username && !url.password) return;
  headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
}

async function send(db: Db, hook: Hook, headers: Record<string, string>, body: string, resolve?: Resolver): Promise<Outcome> {
  const target = interpolateUrl(hook.url, hook.urlVariables) ?? hook.url;
  const checked = await guardHookUrl(db, target, {}, resolve);
  if (!checked.ok) return { error: `URL is blocked: ${checked.reason}` };
  withBasicAuth(checked.url, headers);
  return post({ url: checked.url, address: checked.address, family: checked.family, headers, body, verifyTls: hook.enableSslVerification });
}

/**
 * Executes one delivery (`WebHookService#execute`): skips a hook that is not executable (unless
 * `force`d, as a test is), POSTs the
 * payload to the address checked at this moment, logs the attempt and applies auto-disabling
 * (success resets the failure count, a failure backs off). Returns what happened.
 */
export async function executeDelivery(db: Db, d: Delivery, instanceUrl: string, resolve?: Resolver, opts: { force?: boolean } = {}): Promise<AttemptResult> {
  const hook = await hookStore.findById(db, d.hookId);
  if (!hook || (!opts.force && !executable(hook))) return { result: 'skipped', status: null, message: null };
  const headers = requestHeaders(hook, d, instanceUrl);
  const started = process.hrtime.bigint();
  let outcome: Outcome;
  try {
    outcome = await send(db, hook, headers, render(hook.customWebhookTemplate, d.payload), resolve);
  } catch (e) {
    outcome = { error: (e as Error).message };
  }
  const duration = Number(process.hrtime.bigint() - started) / 1e9;
  const ok = 'status' in outcome && outcome.status >= 200 && outcome.status < 400;
  await record(db, hook, d, logged(headers, hook), outcome, duration, ok);
  const status = 'status' in outcome ? String(outcome.status) : 'internal error';
  return { result: ok ? 'ok' : 'failed', status, message: 'status' in outcome ? outcome.body : outcome.error };
}

const executable = (h: Hook) => alertStatus(h) === 'executable';

async function record(db: Db, hook: Hook, d: Delivery, headers: Record<string, string>, o: Outcome, duration: number, ok: boolean): Promise<void> {
  const masked = hook.url.replace(/\/\/[^/@]*@/, '//*****:*****@');
  await db.transaction(async (trx) => {
    await hookLogStore.insert(trx, {
      web_hook_id: hook.id, trigger: d.trigger, url: masked, url_hash: createHash('sha256').update(interpolateUrl(hook.url, hook.urlVariables) ?? hook.url).digest('hex'),
      request_headers: headers, request_data: d.payload, response_headers: 'status' in o ? o.headers : {}, response_body: 'status' in o ? o.body : '',
      response_status: 'status' in o ? String(o.status) : 'internal error', execution_duration: duration, internal_error_message: 'error' in o ? o.error : null,
    });
    const current = await hookStore.lock(trx, hook.id);
    if (!current) return;
    if (ok) {
      if (current.recentFailures || current.disabledUntil) await trx('web_hooks').where({ id: hook.id }).update({ recent_failures: 0, disabled_until: null });
    } else if (executable(current)) {
      const next = afterFailure(current);
      await trx('web_hooks').where({ id: hook.id }).update({ recent_failures: next.recentFailures, disabled_until: next.disabledUntil });
    }
  });
}
