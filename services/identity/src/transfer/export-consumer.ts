import { emit, exportPartEvents, outboxHeartbeat, withHeartbeat, partWanted, type ExportPartCompletedV1, type ExportPartFailedV1, type ExportRequestedV1, TransferEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { PRODUCER } from '../events/publish';
import { writeIdentityPart } from './project-export';

/** The queue identity's export part is written from. */
export const EXPORT_QUEUE = 'identity.transfer-export';

/**
 * `transfer.export.requested` → identity's part (the project and its members) in storage, then
 * `identity.export.part.completed` (or `.failed` when the project is gone). Idempotent: a
 * redelivery overwrites the same keys and reports again. A re-drive naming only other parts is acked.
 * While the part is written, `identity.transfer.part.progressed` heartbeats say it is in progress.
 */
export function exportConsumer(deps: ServiceDeps): Consumer {
  const events = exportPartEvents(PRODUCER);
  const heartbeat = outboxHeartbeat(deps.db, PRODUCER, deps.config);
  return {
    queue: EXPORT_QUEUE,
    patterns: [TransferEvents.exportRequested],
    handler: async (event) => {
      const data = event.data as ExportRequestedV1;
      if (!partWanted(data, PRODUCER)) return;
      const job = { kind: 'export' as const, job_id: data.export_id, service: PRODUCER, part: PRODUCER };
      const result = await withHeartbeat(heartbeat, job, () => writeIdentityPart(deps.db, deps.storage, data.prefix, data.project_id, data.description));
      if (!result) {
        const failed: ExportPartFailedV1 = { export_id: data.export_id, project_id: data.project_id, part: PRODUCER, error: 'Project not found' };
        await emit(deps.db, PRODUCER, events.failed, failed);
        return;
      }
      const done: ExportPartCompletedV1 = { export_id: data.export_id, project_id: data.project_id, part: PRODUCER, ...result };
      await emit(deps.db, PRODUCER, events.completed, done);
    },
  };
}
