import { exportPartConsumer, outboxHeartbeat } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { writePipelinesPart } from './export-writer';

/** The producer name of pipelines' export and import parts. */
export const PART = 'pipelines';

/** The queue pipelines' export part is written from. */
export const EXPORT_QUEUE = 'pipelines.transfer-export';

/**
 * `transfer.export.requested` → the project's pipelines (stages and jobs nested) in storage, then
 * `pipelines.export.part.completed` with the counts. A redelivery overwrites the same key.
 */
export function exportConsumer(deps: ServiceDeps): Consumer {
  return exportPartConsumer(deps.db, PART, EXPORT_QUEUE, (data) => writePipelinesPart(deps.db, deps.storage, data.prefix, data.project_id), {
    heartbeat: outboxHeartbeat(deps.db, PART, deps.config),
  });
}
