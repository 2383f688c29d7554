/**
 * Enqueues delayed jobs (`when: delayed`) when their `start_in` has passed: every service replica
 * checks once a second; each job moves once (its transition locks the pipeline and re-checks).
 */
import type { Knex } from 'knex';
import type { Logger } from '@anvil/http';
import { enqueueDueJobs } from './queue';

/** How often due delayed jobs are looked for (ms). */
export const DELAYED_CHECK_MS = 1000;

const timers = new WeakMap<Knex, NodeJS.Timeout>();

/** Starts checking for due delayed jobs on `db` (idempotent). */
export function startDelayedScheduler(db: Knex, log: Logger, everyMs = DELAYED_CHECK_MS): void {
  if (timers.has(db)) return;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    enqueueDueJobs(db)
      .catch((err: Error) => log.error('enqueueing delayed jobs failed', { error: err.message }))
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  timers.set(db, timer);
}

/** Stops the checks started for `db`. */
export function stopDelayedScheduler(db: Knex): void {
  clearInterval(timers.get(db));
  timers.delete(db);
}
