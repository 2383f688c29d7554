import type { Knex } from 'knex';
import { emit, type EventEnvelope, type ExportEndedV1, type ExportPartCompletedV1, type ExportPartFailedV1, TransferEvents } from '@anvil/events';
import type { Logger } from '@anvil/http';
import type { Consumer } from '@anvil/runtime';
import type { Storage } from '@anvil/storage';
import { writeArchive } from './archive-writer';
import { archiveKey, exportFilename, jobPrefix } from './export-layout';
import { PRODUCER } from './export-service';
import { type ExportRow, exportStore } from './export-store';
import { uploadArchive } from './upload';

/** The queue the export parts are consumed from. */
export const EXPORT_PARTS_QUEUE = 'project-transfer.export-parts';

/** GitLab's error when an export is larger than `max_export_size`. */
export const EXPORT_TOO_LARGE = 'The project size exceeds the export limit.';

/** Deliveries of the last part before a job whose archive cannot be written is marked failed. */
export const ASSEMBLE_ATTEMPTS = 4;

/** What assembling needs. */
export interface AssembleDeps {
  db: Knex;
  storage: Storage;
  log: Logger;
  allowLocalRequests: boolean;
  /** `outbound_local_requests_whitelist`: local hosts, addresses and ranges reachable even so. */
  localAllowlist?: string[];
  /** `max_export_size` in bytes (0: unlimited). */
  maxExportBytes?: number;
  /** The project's full path (for the archive's file name). */
  fullPath(projectId: number): Promise<string>;
}

function sumCounts(received: ExportRow['parts_received']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const counts of Object.values(received)) for (const [k, v] of Object.entries(counts)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** Publishes `transfer.export.finished` or `.failed` for the job of `row`. */
export async function ended(db: Knex | Knex.Transaction, row: ExportRow, status: 'finished' | 'failed', error: string | null): Promise<void> {
  const data: ExportEndedV1 = { export_id: row.job_id as string, project_id: row.project_id, user_id: row.user_id, status, error };
  await emit(db, PRODUCER, status === 'finished' ? TransferEvents.exportFinished : TransferEvents.exportFailed, data);
}

/**
 * Streams the archive of a job whose parts are all in, marks it finished, uploads it when asked.
 * An archive larger than `max_export_size` is dropped and the job fails with GitLab's message.
 * Safe to run again for the same job: the archive key is the job's own and is overwritten.
 */
export async function assemble(deps: AssembleDeps, row: ExportRow): Promise<void> {
  const jobId = row.job_id as string;
  const key = archiveKey(jobId);
  const { size } = await writeArchive(deps.storage, jobPrefix(jobId), key);
  if (deps.maxExportBytes && size > deps.maxExportBytes) {
    await deps.storage.delete(key);
    if (await exportStore.fail(deps.db, jobId, EXPORT_TOO_LARGE)) await ended(deps.db, row, 'failed', EXPORT_TOO_LARGE);
    await deps.storage.deletePrefix(jobPrefix(jobId));
    return;
  }
  const name = exportFilename(await deps.fullPath(row.project_id), row.started_at ?? new Date());
  if (!(await exportStore.finish(deps.db, jobId, { key, name, size }, sumCounts(row.parts_received)))) {
    await deps.storage.retire(key);
    return;
  }
  await deps.storage.deletePrefix(jobPrefix(jobId));
  if (row.upload_url && row.upload_method) {
    try {
      await uploadArchive(deps.storage, key, { url: row.upload_url, method: row.upload_method, headers: row.upload_headers }, deps.allowLocalRequests, deps.localAllowlist);
    } catch (e) {
      const error = `upload failed: ${e instanceof Error ? e.message : String(e)}`;
      deps.log.warn('export upload failed', { export_id: jobId, error });
      await exportStore.fail(deps.db, jobId, error);
      await ended(deps.db, row, 'failed', error);
      return;
    }
  }
  await ended(deps.db, row, 'finished', null);
}

/**
 * Assembles the job unless another delivery is assembling it (a part reported twice, as after a
 * broker restart): a transaction-scoped advisory lock per job, held while the archive is written, and
 * the job read again under it, so a job is assembled by one delivery at a time and never again once it
 * has ended. A delivery that does not get the lock acks: if the holder dies, its own delivery comes back.
 */
export async function assembleOnce(deps: AssembleDeps, jobId: string): Promise<void> {
  const trx = await deps.db.transaction();
  try {
    const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS ok', [`project-export:${jobId}`]);
    if (!rows[0].ok) return;
    const row = (await trx<ExportRow>('project_exports').where({ job_id: jobId }).first()) ?? null;
    if (!row || row.job_status !== 'started') return;
    await assemble(deps, row);
  } finally {
    await trx.commit().catch(() => undefined);
  }
}

/** Applies one part report; returns the job when it is complete and ready to assemble. */
async function applyPart(db: Knex, event: EventEnvelope): Promise<ExportRow | null> {
  const data = event.data as ExportPartCompletedV1 & Partial<ExportPartFailedV1>;
  return db.transaction(async (trx) => {
    const row = await exportStore.lockJob(trx, data.export_id);
    if (!row || (row.job_status !== 'queued' && row.job_status !== 'started')) return null;
    if (event.type.endsWith('.failed')) {
      await exportStore.fail(trx, data.export_id, `${data.part}: ${data.error ?? 'failed'}`);
      await ended(trx, row, 'failed', data.error ?? 'failed');
      return null;
    }
    const updated = await exportStore.recordPart(trx, row, data.part, data.counts ?? {});
    return updated.parts_expected.every((p) => p in updated.parts_received) ? updated : null;
  });
}

/**
 * Consumes `*.export.part.completed|failed`: records each part (idempotently), and when the last
 * expected part is in, assembles the archive. A failed part fails the job with its reason.
 */
export function exportPartsConsumer(deps: AssembleDeps): Consumer {
  return {
    queue: EXPORT_PARTS_QUEUE,
    patterns: [...TransferEvents.partPatterns],
    options: { prefetch: 4 },
    handler: async (event, delivery) => {
      const ready = await applyPart(deps.db, event);
      if (!ready) return;
      try {
        await assembleOnce(deps, ready.job_id as string);
      } catch (e) {
        // retried (the same keys are overwritten); the last attempt leaves a status a user can read
        if ((delivery?.attempt ?? 1) < ASSEMBLE_ATTEMPTS) throw e;
        const error = `export failed: ${e instanceof Error ? e.message : String(e)}`;
        if (await exportStore.fail(deps.db, ready.job_id as string, error)) await ended(deps.db, ready, 'failed', error);
      }
    },
  };
}
