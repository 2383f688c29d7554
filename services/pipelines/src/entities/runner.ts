import type { Knex } from 'knex';
import { runnerStore } from '../runners/runner-store';
import type { Runner } from '../runners/types';

/** GitLab's online window: a runner that contacted within two hours is online (Ci::Runner::ONLINE_CONTACT_TIMEOUT). */
export const ONLINE_CONTACT_MS = 2 * 60 * 60 * 1000;
/** A runner silent for three months is stale (Ci::Runner::STALE_TIMEOUT). */
export const STALE_MS = 90 * 24 * 60 * 60 * 1000;

/** `Entities::Ci::Runner`: the runner summary a job shows. */
export function toRunnerEntity(r: Runner, now = new Date()) {
  const contacted = r.contactedAt ? +new Date(r.contactedAt) : null;
  const online = contacted !== null && +now - contacted < ONLINE_CONTACT_MS;
  const stale = contacted === null ? +now - +new Date(r.createdAt) > STALE_MS : +now - contacted > STALE_MS;
  const status = online ? 'online' : stale ? 'stale' : contacted === null ? 'never_contacted' : 'offline';
  return {
    id: r.id, description: r.description, ip_address: null, active: !r.paused, paused: r.paused,
    is_shared: r.runnerType === 'instance_type', runner_type: r.runnerType, name: null, online, status,
  };
}

/** The runners `ids` as `Entities::Ci::Runner`, by id (one query). */
export async function runnerSummaries(db: Knex, ids: number[]): Promise<Map<number, Record<string, unknown>>> {
  const runners = await runnerStore.byIds(db, ids);
  return new Map([...runners].map(([id, r]) => [id, toRunnerEntity(r)]));
}
