import { emit, importPartCompleted, outboxHeartbeat, withHeartbeat, partWanted, type ImportPartCompletedV1, type ImportUnpackedV1, TransferImportEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { PRODUCER } from '../events/publish';
import { importIdentityPart } from './project-import';

/** The queue identity imports its part of a project import from. */
export const IMPORT_QUEUE = 'identity.transfer-import';

/**
 * `transfer.import.unpacked` → the project's members and attributes imported, then
 * `identity.import.part.completed` with the counts and failed relations. A project that is gone
 * reports nothing imported. Idempotent: a redelivery adds no member twice. A re-drive naming only
 * other parts is acked. While it imports, `identity.transfer.part.progressed` heartbeats say so.
 */
export function importConsumer(deps: ServiceDeps, publicUrl: string): Consumer {
  const heartbeat = outboxHeartbeat(deps.db, PRODUCER, deps.config);
  return {
    queue: IMPORT_QUEUE,
    patterns: [TransferImportEvents.unpacked],
    options: { prefetch: 1 },
    handler: async (event) => {
      const data = event.data as ImportUnpackedV1;
      if (!partWanted(data, PRODUCER)) return;
      const job = { kind: 'import' as const, job_id: String(data.import_id), service: PRODUCER, part: PRODUCER };
      const result = await withHeartbeat(heartbeat, job, () =>
        importIdentityPart(deps.db, deps.storage, publicUrl, { projectId: data.project_id, importerId: data.user_id, prefix: data.prefix, overrideParams: data.override_params }));
      const done: ImportPartCompletedV1 = {
        import_id: data.import_id, project_id: data.project_id, part: PRODUCER,
        counts: result?.counts ?? { project: 0, project_members: 0 }, failures: result?.failures ?? [],
      };
      await emit(deps.db, PRODUCER, importPartCompleted(PRODUCER), done);
    },
  };
}
