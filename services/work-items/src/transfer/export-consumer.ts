import { exportPartConsumer, outboxHeartbeat } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { writeWorkItemsPart } from './export-writer';

/** The producer name of work-items' export parts. */
export const PART = 'work-items';

/** The queue work-items' export part is written from. */
export const EXPORT_QUEUE = 'work-items.transfer-export';

/**
 * `transfer.export.requested` → labels, milestones, issues (notes, award emoji, label links,
 * milestone, assignees, time logs nested), merge requests and snippets in storage, then
 * `work-items.export.part.completed` with the counts. A redelivery overwrites the same keys.
 */
export function exportConsumer(deps: ServiceDeps): Consumer {
  return exportPartConsumer(deps.db, PART, EXPORT_QUEUE, (data) => writeWorkItemsPart(deps.db, deps.storage, data.prefix, data.project_id), {
    heartbeat: outboxHeartbeat(deps.db, PART, deps.config),
  });
}
