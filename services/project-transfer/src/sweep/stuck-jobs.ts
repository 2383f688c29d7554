import type { Knex } from 'knex';
import {
  emit, type ExportRequestedV1, type ImportRequestedV1, type RelationImportRequestedV1,
  type TransferJobKind, TransferEvents, TransferImportEvents, TransferRelationImportEvents,
} from '@anvil/events';
import type { Storage } from '@anvil/storage';
import { jobPrefix } from '../exports/export-layout';
import { PRODUCER } from '../exports/export-service';
import { type ExportRow, exportStore } from '../exports/export-store';
import { ended } from '../exports/part-consumer';
import { importPrefix } from '../imports/import-consumer';
import type { ImportRow } from '../imports/import-store';
import { relationImportPrefix } from '../imports/relation-import-consumer';
import { type RelationImportRow, STALE_AFTER_MS } from '../imports/relation-import-store';
import { RUNNING_JOBS } from './jobs';

/** When a running job counts as stalled, and when a stalled one is given up. */
export interface StallLimits {
  /** A job whose last progress (`updated_at`) is older than this is stalled. */
  stallSeconds: number;
  /** Re-drives of a job before it is failed when it stalls again. */
  maxRedrives: number;
  /** A stalled export older than this (from its request) is failed (GitLab's `EXPORT_JOBS_EXPIRATION`). */
  exportExpirationSeconds: number;
  /** A stalled import older than this is failed (GitLab's `IMPORT_JOBS_EXPIRATION`). */
  importExpirationSeconds: number;
}

/** `Gitlab::Import::StuckImportJob#error_message`: an import failed after `IMPORT_JOBS_EXPIRATION`. */
export function importExpiredError(seconds: number): string {
  return `Import timed out. Import took longer than ${seconds} seconds`;
}

/** An import failed after its last re-drive made no progress either. */
export function importStalledError(limits: StallLimits): string {
  return `Import timed out. Import made no progress in ${limits.stallSeconds} seconds after ${limits.maxRedrives} retries`;
}

/** The error kept on an export failed as stuck (GitLab's export status has no error text; `export_status` is `failed`). */
export function exportStuckError(expired: boolean, limits: StallLimits): string {
  return expired
    ? `Export timed out. Export took longer than ${limits.exportExpirationSeconds} seconds`
    : `Export timed out. Export made no progress in ${limits.stallSeconds} seconds after ${limits.maxRedrives} retries`;
}

/** Jobs claimed per transaction. */
export const SWEEP_BATCH = 50;

/** Work left for after the claiming transaction commits. */
export interface AfterCommit {
  /** Storage prefixes and keys of failed jobs to delete. */
  cleanup: string[];
  /** Export jobs whose parts are all in but whose archive was never written. */
  assemble: string[];
}

type Stalled<R> = R & { expired: boolean };

/**
 * Locks up to `SWEEP_BATCH` stalled running jobs of `kind` that no other sweep holds (`FOR UPDATE
 * SKIP LOCKED`), oldest progress first; each says whether it is older than `expirySeconds` (from
 * `ageColumn`). A row another sweep re-drove meanwhile has new progress and is not stalled any more.
 */
async function claimStalled<R>(trx: Knex.Transaction, kind: TransferJobKind, ageColumn: string, expirySeconds: number, stallSeconds: number): Promise<Stalled<R>[]> {
  const { table, status, running } = RUNNING_JOBS[kind];
  return trx(table)
    .select('*', trx.raw(`(${ageColumn} < now() - make_interval(secs => ?)) AS expired`, [expirySeconds]))
    .whereIn(status, running)
    .where('updated_at', '<', trx.raw('now() - make_interval(secs => ?)', [stallSeconds]))
    .orderBy('updated_at')
    .limit(SWEEP_BATCH)
    .forUpdate()
    .skipLocked() as unknown as Stalled<R>[];
}

/** Records a re-drive: the counter, and `updated_at` (the re-drive is the job's latest progress). */
async function countRedrive(trx: Knex.Transaction, table: string, id: number): Promise<void> {
  await trx(table).where({ id }).update({ redrives: trx.raw('redrives + 1'), updated_at: trx.fn.now() });
}

/** Whether any delivery holds the export's assembling lock (taking it for this transaction if not). */
async function assembling(trx: Knex.Transaction, jobId: string): Promise<boolean> {
  const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS ok', [`project-export:${jobId}`]);
  return !rows[0].ok;
}

/**
 * Stalled exports: re-publishes `transfer.export.requested` naming the parts still missing, or, when
 * every part is in, leaves the archive to be assembled after commit (an archive being written right
 * now is progress). An expired one, or one re-driven `maxRedrives` times, is failed. Returns the rows acted on.
 */
export async function sweepExports(trx: Knex.Transaction, limits: StallLimits, after: AfterCommit): Promise<{ redriven: number; failed: number }> {
  const rows = await claimStalled<ExportRow>(trx, 'export', 'requested_at', limits.exportExpirationSeconds, limits.stallSeconds);
  let redriven = 0;
  let failed = 0;
  for (const row of rows) {
    const jobId = row.job_id as string;
    const missing = row.parts_expected.filter((p) => !(p in row.parts_received));
    if (!missing.length && (await assembling(trx, jobId))) {
      await trx('project_exports').where({ id: row.id }).update({ updated_at: trx.fn.now() });
      continue;
    }
    if (row.expired || row.redrives >= limits.maxRedrives) {
      const error = exportStuckError(row.expired, limits);
      await exportStore.fail(trx, jobId, error);
      await ended(trx, row, 'failed', error);
      after.cleanup.push(jobPrefix(jobId));
      failed += 1;
      continue;
    }
    if (missing.length) {
      const data: ExportRequestedV1 = { export_id: jobId, project_id: row.project_id, user_id: row.user_id, description: row.description, prefix: jobPrefix(jobId), parts: missing };
      await emit(trx, PRODUCER, TransferEvents.exportRequested, data);
    } else {
      after.assemble.push(jobId);
    }
    await countRedrive(trx, 'project_exports', row.id);
    redriven += 1;
  }
  return { redriven, failed };
}

/**
 * Stalled imports: re-publishes `transfer.import.requested` (a scheduled one is unpacked again, a
 * started one is handed to the services whose parts are missing). An expired one, or one re-driven
 * `maxRedrives` times, is failed with GitLab's `import_error`.
 */
export async function sweepImports(trx: Knex.Transaction, limits: StallLimits, after: AfterCommit): Promise<{ redriven: number; failed: number }> {
  const rows = await claimStalled<ImportRow>(trx, 'import', 'created_at', limits.importExpirationSeconds, limits.stallSeconds);
  let redriven = 0;
  for (const row of rows) {
    if (row.expired || row.redrives >= limits.maxRedrives || row.project_id === null || !row.archive_key) {
      const error = row.expired ? importExpiredError(limits.importExpirationSeconds) : importStalledError(limits);
      await trx('project_imports').where({ id: row.id }).update({ status: 'failed', error, updated_at: trx.fn.now() });
      after.cleanup.push(importPrefix(row.id), ...(row.archive_key ? [row.archive_key] : []));
      continue;
    }
    const data: ImportRequestedV1 = { import_id: Number(row.id), project_id: row.project_id, user_id: row.user_id, archive_key: row.archive_key };
    await emit(trx, PRODUCER, TransferImportEvents.requested, data);
    await countRedrive(trx, 'project_imports', row.id);
    redriven += 1;
  }
  return { redriven, failed: rows.length - redriven };
}

/**
 * Stalled relation imports: re-publishes `transfer.relation-import.requested` (a created one is
 * unpacked again, a started one handed to its owner again). A stale one (GitLab's
 * `RelationImportTracker#stale?`: 24 h) or one re-driven `maxRedrives` times is failed.
 */
export async function sweepRelationImports(trx: Knex.Transaction, limits: StallLimits, after: AfterCommit): Promise<{ redriven: number; failed: number }> {
  const rows = await claimStalled<RelationImportRow>(trx, 'relation_import', 'created_at', STALE_AFTER_MS / 1000, limits.stallSeconds);
  let redriven = 0;
  for (const row of rows) {
    if (row.expired || row.redrives >= limits.maxRedrives || !row.archive_key) {
      await trx('relation_imports').where({ id: row.id }).update({ status: 'failed', updated_at: trx.fn.now() });
      after.cleanup.push(relationImportPrefix(row.id), ...(row.archive_key ? [row.archive_key] : []));
      continue;
    }
    const data: RelationImportRequestedV1 = { relation_import_id: Number(row.id), project_id: row.project_id, user_id: row.user_id, relation: row.relation, archive_key: row.archive_key };
    await emit(trx, PRODUCER, TransferRelationImportEvents.requested, data);
    await countRedrive(trx, 'relation_imports', row.id);
    redriven += 1;
  }
  return { redriven, failed: rows.length - redriven };
}

/** Deletes what failed jobs left in storage: prefixes (ending in `/`) and single keys. */
export async function cleanUp(storage: Storage, items: string[]): Promise<void> {
  for (const item of items) {
    if (item.endsWith('/')) await storage.deletePrefix(item);
    else await storage.delete(item);
  }
}
