import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { emit, type ExportRequestedV1, TransferEvents } from '@anvil/events';
import { checkUrl, ValidationError } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import { jobPrefix } from './export-layout';
import { exportStore } from './export-store';

/** The producer name on every project-transfer event. */
export const PRODUCER = 'project-transfer';

/** Where a finished archive goes, as `upload[...]` asked. */
export interface UploadTarget {
  url: string;
  method: 'PUT' | 'POST';
  headers: Record<string, string>;
}

/** What the export service needs. */
export interface ExportDeps {
  db: Knex;
  storage: Storage;
  parts: string[];
  allowLocalRequests: boolean;
  /** `outbound_local_requests_whitelist`: local hosts, addresses and ranges reachable even so. */
  localAllowlist?: string[];
}

/**
 * Schedules an export of `projectId` for `userId` (`Projects::ImportExport::ExportService`): checks
 * the upload URL (`{"message":{"url":[...]}}` when refused), drops the caller's previous archive,
 * records the job as queued and publishes `transfer.export.requested` in the same transaction.
 */
export async function requestExport(deps: ExportDeps, projectId: number, userId: number, description: string | null, upload: UploadTarget | null): Promise<string> {
  if (upload) {
    const checked = await checkUrl(upload.url, { allowLocal: deps.allowLocalRequests, allowlist: deps.localAllowlist ?? [] });
    if (!checked.ok) throw new ValidationError({ url: [`is blocked: ${checked.reason}`] });
  }
  const jobId = randomUUID();
  const dropped = await deps.db.transaction(async (trx) => {
    const previous = await exportStore.startJob(trx, { projectId, userId, jobId, description, upload, parts: deps.parts });
    const data: ExportRequestedV1 = { export_id: jobId, project_id: projectId, user_id: userId, description, prefix: jobPrefix(jobId) };
    await emit(trx, PRODUCER, TransferEvents.exportRequested, data);
    return previous;
  });
  if (dropped) await deps.storage.retire(dropped);
  return jobId;
}
