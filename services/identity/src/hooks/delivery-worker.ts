import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@anvil/events';
import type { Logger } from '@anvil/http';
import type { Db } from '../sql';
import { alertStatus, Hook } from './hook';
import { hookEventOf, TRIGGERS } from './hook-events';
import { hookStore } from './hook-store';
import { executeDelivery } from './execute';

/** Attempts per delivery: the first and four retries (`WebHookWorker` `retry: 4`). */
export const MAX_ATTEMPTS = 5;

/** Sidekiq's retry delay for the n-th retry: n⁴ + 15 s (jitter left out). */
export function retryDelayMs(attempt: number): number {
  return (attempt ** 4 + 15) * 1000;
}

/**
 * Turns an event into deliveries, one per executable hook of the groups it concerns whose switch
 * is on, written in the caller's transaction (the consumer's inbox transaction).
 */
export async function enqueueDeliveries(trx: Db, event: EventEnvelope, publicUrl: string): Promise<number> {
  const planned = await hookEventOf(trx, event, publicUrl);
  if (!planned) return 0;
  const hooks = (await hookStore.withFlag(trx, planned.groupIds, TRIGGERS[planned.trigger])).filter((h: Hook) => alertStatus(h) === 'executable');
  if (!hooks.length) return 0;
  const idempotencyKey = randomUUID();
  await trx('web_hook_deliveries').insert(
    hooks.map((h) => ({ web_hook_id: h.id, trigger: planned.trigger, payload: JSON.stringify(planned.payload), idempotency_key: idempotencyKey, event_uuid: randomUUID() })),
  );
  return hooks.length;
}

interface DeliveryRow {
  id: string;
  web_hook_id: number;
  trigger: string;
  payload: Record<string, unknown>;
  idempotency_key: string;
  event_uuid: string;
  attempts: number;
}

/** Claims one due delivery (leased for a minute so a crashed worker's claim expires), or null. */
async function claim(db: Db): Promise<DeliveryRow | null> {
  const rows = (await db.raw(
    `UPDATE web_hook_deliveries SET attempts = attempts + 1, next_attempt_at = now() + interval '1 minute'
     WHERE id = (SELECT id FROM web_hook_deliveries WHERE next_attempt_at <= now() ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
  )) as { rows: DeliveryRow[] };
  return rows.rows[0] ?? null;
}

/** Runs one due delivery, if any: done (or given up) → removed; failed with attempts left → retried later. */
export async function deliverNext(db: Db, instanceUrl: string): Promise<boolean> {
  const row = await claim(db);
  if (!row) return false;
  const result = await executeDelivery(db, { hookId: row.web_hook_id, trigger: row.trigger, payload: row.payload, idempotencyKey: row.idempotency_key, eventUuid: row.event_uuid }, instanceUrl);
  if (result === 'failed' && row.attempts < MAX_ATTEMPTS) {
    await db('web_hook_deliveries').where({ id: row.id }).update({ next_attempt_at: new Date(Date.now() + retryDelayMs(row.attempts)) });
  } else {
    await db('web_hook_deliveries').where({ id: row.id }).delete();
  }
  return true;
}

/** A polling loop over due deliveries; `stop()` waits for the delivery in progress. */
export function startDeliveryWorker(db: Db, instanceUrl: string, log: Logger, pollMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      while (!stopped && (await deliverNext(db, instanceUrl)));
    } catch (e) {
      log.error('web hook delivery failed', { error: (e as Error).message });
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), pollMs);
  };
  running = tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
