import { emit, exportPartEvents, type ExportPartCompletedV1, type ExportPartFailedV1, type ExportRequestedV1, TransferEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { writeWorkItemsPart } from './export-writer';

/** The producer name of work-items' export parts. */
export const PART = 'work-items';

/** The queue work-items' export part is written from. */
export const EXPORT_QUEUE = 'work-items.transfer-export';

/** Deliveries before a part that cannot be written is reported failed. */
const ATTEMPTS = 4;

/**
 * `transfer.export.requested` → labels, milestones, issues (notes, award emoji, label links,
 * milestone, assignees, time logs nested), merge requests and snippets in storage, then
 * `work-items.export.part.completed` with the counts. A redelivery overwrites the same keys.
 */
export function exportConsumer(deps: ServiceDeps): Consumer {
  const events = exportPartEvents(PART);
  return {
    queue: EXPORT_QUEUE,
    patterns: [TransferEvents.exportRequested],
    handler: async (event, delivery) => {
      const data = event.data as ExportRequestedV1;
      try {
        const result = await writeWorkItemsPart(deps.db, deps.storage, data.prefix, data.project_id);
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
