import { emit, exportPartEvents, partWanted, type ExportPartCompletedV1, type ExportPartFailedV1, type ExportRequestedV1, TransferEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { PRODUCER } from '../events/publish';
import { writeIdentityPart } from './project-export';

/** The queue identity's export part is written from. */
export const EXPORT_QUEUE = 'identity.transfer-export';

/**
 * `transfer.export.requested` → identity's part (the project and its members) in storage, then
 * `identity.export.part.completed` (or `.failed` when the project is gone). Idempotent: a
 * redelivery overwrites the same keys and reports again. A re-drive naming only other parts is acked.
 */
export function exportConsumer(deps: ServiceDeps): Consumer {
  const events = exportPartEvents(PRODUCER);
  return {
    queue: EXPORT_QUEUE,
    patterns: [TransferEvents.exportRequested],
    handler: async (event) => {
      const data = event.data as ExportRequestedV1;
      if (!partWanted(data, PRODUCER)) return;
      const result = await writeIdentityPart(deps.db, deps.storage, data.prefix, data.project_id, data.description);
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
