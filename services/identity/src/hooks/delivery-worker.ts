import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@anvil/events';
import type { Logger } from '@anvil/http';
import type { Db } from '../sql';
import { alertStatus, Hook } from './hook';
import { hookEventOf, TRIGGERS } from './hook-events';
import { hookLogStore } from './hook-log-store';
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
 * is on, written in the caller's transaction (the consumer's inbox transaction). The payload is
 * built only when a hook fires: events of groups without hooks skip its user and project reads.
 */
export async function enqueueDeliveries(trx: Db, event: EventEnvelope, publicUrl: string): Promise<number> {
  const planned = await hookEventOf(trx, event, publicUrl);
  if (!planned) return 0;
  const hooks = (await hookStore.withFlag(trx, planned.groupIds, TRIGGERS[planned.trigger])).filter((h: Hook) => alertStatus(h) === 'executable');
  if (!hooks.length) return 0;
  const idempotencyKey = randomUUID();
  const payload = JSON.stringify(await planned.payload());
  await trx('web_hook_deliveries').insert(
    hooks.map((h) => ({ web_hook_id: h.id, trigger: planned.trigger, payload, idempotency_key: idempotencyKey, event_uuid: randomUUID() })),
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
  const { result } = await executeDelivery(db, { hookId: row.web_hook_id, trigger: row.trigger, payload: row.payload, idempotencyKey: row.idempotency_key, eventUuid: row.event_uuid }, instanceUrl);
  if (result === 'failed' && row.attempts < MAX_ATTEMPTS) {
    await db('web_hook_deliveries').where({ id: row.id }).update({ next_attempt_at: new Date(Date.now() + retryDelayMs(row.attempts)) });
  } else {
    await db('web_hook_deliveries').where({ id: row.id }).delete();
  }
  return true;
}

/** Milliseconds until the earliest pending delivery is due (0 when one is due now), or null when none is pending. */
async function nextDueIn(db: Db): Promise<number | null> {
  const row = (await db('web_hook_deliveries').min({ at: 'next_attempt_at' }).first()) as { at: Date | null } | undefined;
  return row?.at ? Math.max(0, new Date(row.at).getTime() - Date.now()) : null;
}

/**
 * Runs due deliveries: woken when the consumer queues some, otherwise asleep until the next retry
 * is due (at most `maxSleepMs`, so deliveries queued by another replica are not left waiting);
 * with nothing pending it sleeps until woken and issues no queries.
 */
export class DeliveryWorker {
  private stopped = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> = Promise.resolve();
  private prunedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly instanceUrl: string,
    private readonly log: Logger,
    private readonly maxSleepMs: number,
  ) {}

  /** Starts the loop (once). */
  start(): void {
    this.loop = this.run();
  }

  /** New deliveries are queued: look now. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops after the delivery in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
  }

  private async pruneHourly(): Promise<void> {
    if (Date.now() - this.prunedAt < 3600_000) return;
    this.prunedAt = Date.now();
    await hookLogStore.prune(this.db);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      let sleep: number | null = this.maxSleepMs;
      try {
        while (!this.stopped && (await deliverNext(this.db, this.instanceUrl)));
        await this.pruneHourly();
        const due = await nextDueIn(this.db);
        sleep = due === null ? null : Math.min(due, this.maxSleepMs);
      } catch (e) {
        this.log.error('web hook delivery failed', { error: (e as Error).message });
      }
      if (this.stopped || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = sleep === null ? null : setTimeout(resolve, sleep);
        this.wakeUp = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }
}
