import { emit, type EventEnvelope, type RelationImportPartCompletedV1, type RelationImportRequestedV1, type RelationImportUnpackedV1, TransferRelationImportEvents } from '@anvil/events';
import type { Consumer } from '@anvil/runtime';
import { PRODUCER } from '../exports/export-service';
import { type ImportDeps, userMap } from './import-consumer';
import { type RelationImportRow, relationImportStore } from './relation-import-store';
import { unpackArchive, UnsafeArchiveError } from './safe-unpack';

/** The queue relation imports are consumed from. */
export const RELATION_IMPORTS_QUEUE = 'project-transfer.relation-imports';

/** The service that imports each relation. */
export const RELATION_OWNERS: Record<string, string> = { issues: 'work-items', milestones: 'work-items', merge_requests: 'work-items', ci_pipelines: 'pipelines' };

/** Storage prefix of a relation import's unpacked tree. */
export function relationImportPrefix(id: number): string {
  return `relation-imports/${id}/`;
}

/** Hands an unpacked relation import to its owning service. */
async function handOut(deps: ImportDeps, row: RelationImportRow): Promise<void> {
  const prefix = relationImportPrefix(row.id);
  const map = await userMap(deps, prefix);
  await deps.db.transaction(async (trx) => {
    if (!(await relationImportStore.transition(trx, row.id, ['created', 'started'], 'started'))) return;
    const unpacked: RelationImportUnpackedV1 = { relation_import_id: row.id, project_id: row.project_id, user_id: row.user_id, relation: row.relation, prefix, user_map: map };
    await emit(trx, PRODUCER, TransferRelationImportEvents.unpacked, unpacked);
  });
}

/**
 * `transfer.relation-import.requested`: unpacks the archive and hands it to the owning service. A
 * request for a tracker already `started` (re-published by the stuck-job sweep) finds it unpacked and
 * hands it out again; the owner skips the iids it already imported. The uploaded archive is deleted
 * once the tracker has started, so a delivery cut short before that finds it again.
 */
async function onRequested(deps: ImportDeps, data: RelationImportRequestedV1): Promise<void> {
  const row = await relationImportStore.find(deps.db, data.relation_import_id);
  if (!row || (row.status !== 'created' && row.status !== 'started')) return;
  if (row.status === 'started') return handOut(deps, row);
  const prefix = relationImportPrefix(row.id);
  const body = await deps.storage.get(data.archive_key);
  try {
    if (!deps.parts.includes(RELATION_OWNERS[row.relation])) throw new UnsafeArchiveError(`${row.relation} cannot be imported here`);
    if (!body) throw new UnsafeArchiveError('The import file is missing');
    await unpackArchive(deps.storage, body, prefix, deps.limits);
  } catch (e) {
    if (!(e instanceof UnsafeArchiveError)) throw e;
    body?.destroy();
    await relationImportStore.transition(deps.db, row.id, ['created', 'started'], 'failed');
    await deps.storage.delete(data.archive_key);
    await deps.storage.deletePrefix(prefix);
    return;
  }
  await handOut(deps, row);
  await deps.storage.delete(data.archive_key);
}

async function onPart(deps: ImportDeps, data: RelationImportPartCompletedV1): Promise<void> {
  if (await relationImportStore.transition(deps.db, data.relation_import_id, ['started'], 'finished')) {
    await deps.storage.deletePrefix(relationImportPrefix(data.relation_import_id));
  }
}

/** Unpacks requested relation imports (safely) for the owning service, and finishes them on its report. */
export function relationImportsConsumer(deps: ImportDeps): Consumer {
  return {
    queue: RELATION_IMPORTS_QUEUE,
    patterns: [TransferRelationImportEvents.requested, ...TransferRelationImportEvents.partPatterns],
    // about 45 s of retries: a delivery that meets a restarting database is applied once it is back
    options: { prefetch: 2, maxAttempts: 10, retryDelayMs: 1000 },
    handler: async (event: EventEnvelope) => {
      if (event.type === TransferRelationImportEvents.requested) await onRequested(deps, event.data as RelationImportRequestedV1);
      else await onPart(deps, event.data as RelationImportPartCompletedV1);
    },
  };
}
