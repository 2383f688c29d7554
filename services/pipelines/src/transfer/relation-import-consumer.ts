import { createInterface } from 'node:readline';
import { isDatabaseUnavailable } from '@anvil/db';
import { emit, outboxHeartbeat, relationImportPartCompleted, withHeartbeat, type RelationImportPartCompletedV1, type RelationImportUnpackedV1, TransferRelationImportEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { PART } from './export-consumer';
import { PIPELINES_FILE } from './export-writer';
import { type Counts, importPipeline, type UserMapper } from './import-lines';

/** The queue pipelines re-imports its relation from. */
export const RELATION_IMPORT_QUEUE = 'pipelines.transfer-relation-import';

/** The relation this service re-imports. */
export const RELATION = 'ci_pipelines';

/**
 * Imports `tree/project/ci_pipelines.ndjson` of an unpacked archive into the project, each line in
 * its own transaction, skipping every pipeline whose `iid` the project already has (GitLab's
 * skip-on-duplicate-iid); a line that fails is reported and the rest goes on.
 */
export async function importPipelineRelation(deps: ServiceDeps, data: RelationImportUnpackedV1): Promise<RelationImportPartCompletedV1> {
  const users: UserMapper = (id) => data.user_map[String(id)] ?? data.user_id;
  const counts: Counts = { ci_pipelines: 0, stages: 0, builds: 0 };
  const failures: RelationImportPartCompletedV1['failures'] = [];
  const file = await deps.storage.get(`${data.prefix}${PIPELINES_FILE}`);
  let skipped = 0;
  let n = -1;
  for await (const text of file ? createInterface({ input: file, crlfDelay: Infinity }) : []) {
    n += 1;
    if (!text.trim()) continue;
    try {
      const line = JSON.parse(text);
      const before = counts.ci_pipelines;
      await deps.db.transaction((trx) => importPipeline(trx, data.project_id, line, users, counts));
      if (counts.ci_pipelines === before) skipped += 1;
      } catch (e) {
      // a database that is gone fails the delivery (it is retried and resumes), not the line
      if (isDatabaseUnavailable(e)) throw e;
      const err = e instanceof Error ? e : new Error(String(e));
      failures.push({ relation_name: RELATION, line_number: n, exception_class: err.name, exception_message: err.message.slice(0, 255) });
    }
  }
  return { relation_import_id: data.relation_import_id, project_id: data.project_id, part: PART, counts, skipped, failures: failures.slice(0, 100) };
}

/** `transfer.relation-import.unpacked` of `ci_pipelines` → imported (heartbeats while it runs), then reported. */
export function relationImportConsumer(deps: ServiceDeps): Consumer {
  const heartbeat = outboxHeartbeat(deps.db, PART, deps.config);
  return {
    queue: RELATION_IMPORT_QUEUE,
    patterns: [TransferRelationImportEvents.unpacked],
    // about 45 s of retries: a delivery that meets a restarting database resumes once it is back
    options: { prefetch: 1, maxAttempts: 10, retryDelayMs: 1000 },
    handler: async (event) => {
      const data = event.data as RelationImportUnpackedV1;
      if (data.relation !== RELATION) return;
      const job = { kind: 'relation_import' as const, job_id: String(data.relation_import_id), service: PART, part: PART };
      const done = await withHeartbeat(heartbeat, job, () => importPipelineRelation(deps, data));
      await emit(deps.db, PART, relationImportPartCompleted(PART), done);
    },
  };
}
