import type { Knex } from 'knex';
import { emit, type EventEnvelope, type ImportPartCompletedV1, type ImportRequestedV1, type ImportUnpackedV1, TransferImportEvents } from '@anvil/events';
import type { Logger } from '@anvil/http';
import type { Consumer } from '@anvil/runtime';
import type { Storage } from '@anvil/storage';
import type { ProjectClient } from '../identity/project-client';
import { PRODUCER } from '../exports/export-service';
import { type ImportRow, importStore } from './import-store';
import { type UnpackLimits, unpackArchive, UnsafeArchiveError } from './safe-unpack';

/** The queue import work is consumed from. */
export const IMPORTS_QUEUE = 'project-transfer.imports';

/** What the import consumer needs. */
export interface ImportDeps {
  db: Knex;
  storage: Storage;
  log: Logger;
  projects: ProjectClient;
  limits: UnpackLimits;
  /** The services that each import one part (they all must report before the import is finished). */
  parts: string[];
}

/** Storage prefix of an import's unpacked tree. */
export function importPrefix(importId: number): string {
  return `imports/${importId}/`;
}

/** Exported user id → local user id, from `project_members.ndjson` (members matched by public e-mail). */
export async function userMap(deps: ImportDeps, prefix: string): Promise<Record<string, number>> {
  const file = await deps.storage.get(`${prefix}tree/project/project_members.ndjson`);
  if (!file) return {};
  const byEmail = new Map<string, string>();
  let rest = '';
  for await (const chunk of file) {
    const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) addMember(line, byEmail);
  }
  addMember(rest, byEmail);
  const local = await deps.projects.usersByEmail([...byEmail.keys()]);
  const out: Record<string, number> = {};
  for (const [email, exportedId] of byEmail) if (local[email]) out[exportedId] = local[email];
  return out;
}

function addMember(line: string, byEmail: Map<string, string>): void {
  if (!line.trim()) return;
  try {
    const m = JSON.parse(line) as { user?: { id?: number; public_email?: string | null; email?: string | null } };
    const email = m.user?.public_email ?? m.user?.email;
    if (email && m.user?.id !== undefined) byEmail.set(email.toLowerCase(), String(m.user.id));
  } catch {
    // an unreadable member line maps no one; its contributions go to the importer
  }
}

/** Hands an unpacked import to the services whose parts have not reported (all of them the first time). */
async function handOut(deps: ImportDeps, row: ImportRow, projectId: number): Promise<void> {
  const prefix = importPrefix(row.id);
  const map = await userMap(deps, prefix);
  await deps.db.transaction(async (trx) => {
    const current = (await trx('project_imports').where({ id: row.id }).forUpdate().first()) as ImportRow | undefined;
    if (!current || !(await importStore.transition(trx, row.id, ['scheduled', 'started'], 'started'))) return;
    const unpacked: ImportUnpackedV1 = { import_id: row.id, project_id: projectId, user_id: row.user_id, prefix, user_map: map, override_params: row.override_params };
    if (current.status === 'started') unpacked.parts = deps.parts.filter((p) => !current.parts_received.includes(p));
    await emit(trx, PRODUCER, TransferImportEvents.unpacked, unpacked);
  });
}

/**
 * `transfer.import.requested`: unpacks the archive and hands it out. A request for an import already
 * `started` (redelivered, or re-published by the stuck-job sweep) finds it unpacked, and hands it only
 * to the services whose parts are missing.
 */
async function onRequested(deps: ImportDeps, data: ImportRequestedV1): Promise<void> {
  const row = await importStore.find(deps.db, data.import_id);
  if (!row || (row.status !== 'scheduled' && row.status !== 'started')) return;
  if (row.status === 'started') return handOut(deps, row, data.project_id);
  const prefix = importPrefix(row.id);
  const body = await deps.storage.get(data.archive_key);
  try {
    if (!body) throw new UnsafeArchiveError('The import file is missing');
    await unpackArchive(deps.storage, body, prefix, deps.limits);
  } catch (e) {
    if (!(e instanceof UnsafeArchiveError)) throw e;
    await importStore.transition(deps.db, row.id, ['scheduled', 'started'], 'failed', { error: e.message });
    await deps.storage.delete(data.archive_key);
    return;
  }
  await handOut(deps, row, data.project_id);
}

async function onPart(deps: ImportDeps, data: ImportPartCompletedV1): Promise<void> {
  const finished = await deps.db.transaction(async (trx) => {
    const row = (await trx('project_imports').where({ id: data.import_id }).forUpdate().first()) as ImportRow | undefined;
    if (!row || row.status !== 'started' || row.parts_received.includes(data.part)) return false;
    const received = [...row.parts_received, data.part];
    await importStore.addFailures(trx, row.id, `${data.part}#import`, data.failures);
    // a part received is progress: the stuck-job sweep measures it by `updated_at`
    await trx('project_imports').where({ id: row.id }).update({ parts_received: received, counts: JSON.stringify({ ...row.counts, ...data.counts }), updated_at: trx.fn.now() });
    const done = deps.parts.every((p) => received.includes(p));
    if (done) await importStore.transition(trx, row.id, ['started'], 'finished');
    return done;
  });
  if (finished) await deps.storage.deletePrefix(importPrefix(data.import_id));
}

/** Unpacks requested imports (safely) and hands them to the services; records their parts until finished. */
export function importsConsumer(deps: ImportDeps): Consumer {
  return {
    queue: IMPORTS_QUEUE,
    patterns: [TransferImportEvents.requested, ...TransferImportEvents.partPatterns],
    // about 45 s of retries: a delivery that meets a restarting database is applied once it is back
    options: { prefetch: 2, maxAttempts: 10, retryDelayMs: 1000 },
    handler: async (event: EventEnvelope) => {
      if (event.type === TransferImportEvents.requested) await onRequested(deps, event.data as ImportRequestedV1);
      else await onPart(deps, event.data as ImportPartCompletedV1);
    },
  };
}
