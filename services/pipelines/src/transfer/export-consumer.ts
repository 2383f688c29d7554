import { emit, exportPartEvents, type ExportPartCompletedV1, type ExportPartFailedV1, type ExportRequestedV1, TransferEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { writePipelinesPart } from './export-writer';

/** The producer name of pipelines' export and import parts. */
export const PART = 'pipelines';

/** The queue pipelines' export part is written from. */
export const EXPORT_QUEUE = 'pipelines.transfer-export';

/** Deliveries before a part that cannot be written is reported failed. */
const ATTEMPTS = 4;

/**
 * `transfer.export.requested` → the project's pipelines (stages and jobs nested) in storage, then
 * `pipelines.export.part.completed` with the counts. A redelivery overwrites the same key.
 */
export function exportConsumer(deps: ServiceDeps): Consumer {
  const events = exportPartEvents(PART);
  return {
    queue: EXPORT_QUEUE,
    patterns: [TransferEvents.exportRequested],
    handler: async (event, delivery) => {
      const data = event.data as ExportRequestedV1;
      try {
        const result = await writePipelinesPart(deps.db, deps.storage, data.prefix, data.project_id);
        const done: ExportPartCompletedV1 = { export_id: data.export_id, project_id: data.project_id, part: PART, ...result };
        await emit(deps.db, PART, events.completed, done);
      } catch (e) {
        if ((delivery?.attempt ?? 1) < ATTEMPTS) throw e;
        const failed: ExportPartFailedV1 = { export_id: data.export_id, project_id: data.project_id, part: PART, error: e instanceof Error ? e.message : String(e) };
        await emit(deps.db, PART, events.failed, failed);
      }
    },
  };
}
