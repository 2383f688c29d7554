import type { Knex } from 'knex';
import { transferPartProgressed, type TransferPartProgressedV1 } from './contracts';
import { emit } from './outbox';

/** Seconds between two heartbeats of a running part (`TRANSFER_HEARTBEAT_SECONDS`) unless configured. */
export const DEFAULT_HEARTBEAT_SECONDS = 60;

/** How a part's heartbeats go out, and how often. */
export interface PartHeartbeat {
  /** Publishes one heartbeat; a rejection is ignored (the next beat follows). */
  publish(data: TransferPartProgressedV1): Promise<unknown>;
  intervalMs: number;
}

/** The job and part a heartbeat names (its `at` is added at each beat). */
export type HeartbeatJob = Omit<TransferPartProgressedV1, 'at'>;

/**
 * Heartbeats of `producer` written to its outbox: each beat is one autocommitted insert (no
 * transaction held open while the part runs), relayed to the broker as every other event. Every
 * `config.TRANSFER_HEARTBEAT_SECONDS` (default 60).
 */
export function outboxHeartbeat(db: Knex, producer: string, config: Record<string, unknown> = {}): PartHeartbeat {
  const seconds = Number(config.TRANSFER_HEARTBEAT_SECONDS ?? DEFAULT_HEARTBEAT_SECONDS);
  return {
    publish: (data) => emit(db, producer, transferPartProgressed(producer), data),
    intervalMs: Math.max(1, seconds) * 1000,
  };
}

/**
 * Runs `fn` (one service's work on its part of a transfer job) and, while it runs, publishes a
 * heartbeat naming `job` at once and then every `beat.intervalMs`: one at a time, a failed publish
 * dropped. No beat starts once `fn` has settled.
 */
export async function withHeartbeat<T>(beat: PartHeartbeat, job: HeartbeatJob, fn: () => Promise<T>): Promise<T> {
  let pending: Promise<unknown> | null = null;
  const pulse = () => {
    if (pending) return;
    pending = beat.publish({ ...job, at: new Date().toISOString() })
      .catch(() => undefined)
      .finally(() => (pending = null));
  };
  pulse();
  const timer = setInterval(pulse, beat.intervalMs);
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
