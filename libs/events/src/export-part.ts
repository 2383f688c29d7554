import type { Knex } from 'knex';
import { exportPartEvents, partWanted, type ExportPartCompletedV1, type ExportPartFailedV1, type ExportRequestedV1, TransferEvents } from './contracts';
import { emit } from './outbox';
import { type PartHeartbeat, withHeartbeat } from './part-heartbeat';
import type { Delivery, EventEnvelope } from './types';

/** What one service wrote for an export: its files under the export's prefix and its counts per relation. */
export type ExportPartWriter = (data: ExportRequestedV1) => Promise<Pick<ExportPartCompletedV1, 'files' | 'counts'>>;

/**
 * The consumer of `transfer.export.requested` that writes one service's part with `write` and reports
 * `<part>.export.part.completed`; after `attempts` failed deliveries it reports `.failed` instead.
 * A redelivery writes the same keys again, so the part is idempotent. A request naming only other
 * parts (a re-drive) is acked untouched. While `write` runs, `heartbeat` (when given) says the part is
 * in progress (`<part>.transfer.part.progressed`).
 */
export function exportPartConsumer(db: Knex, part: string, queue: string, write: ExportPartWriter, opts: { attempts?: number; heartbeat?: PartHeartbeat } = {}) {
  const attempts = opts.attempts ?? 4;
  const events = exportPartEvents(part);
  return {
    queue,
    patterns: [TransferEvents.exportRequested],
    handler: async (event: EventEnvelope, delivery?: Delivery): Promise<void> => {
      const data = event.data as ExportRequestedV1;
      if (!partWanted(data, part)) return;
      try {
        const job = { kind: 'export' as const, job_id: data.export_id, service: part, part };
        const result = opts.heartbeat ? await withHeartbeat(opts.heartbeat, job, () => write(data)) : await write(data);
        const done: ExportPartCompletedV1 = { export_id: data.export_id, project_id: data.project_id, part, ...result };
        await emit(db, part, events.completed, done);
      } catch (e) {
        if ((delivery?.attempt ?? 1) < attempts) throw e;
        const failed: ExportPartFailedV1 = { export_id: data.export_id, project_id: data.project_id, part, error: e instanceof Error ? e.message : String(e) };
        await emit(db, part, events.failed, failed);
      }
    },
  };
}
