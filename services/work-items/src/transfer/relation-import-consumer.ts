import { createInterface } from 'node:readline';
import { isDatabaseUnavailable } from '@anvil/db';
import { emit, outboxHeartbeat, relationImportPartCompleted, withHeartbeat, type RelationImportPartCompletedV1, type RelationImportUnpackedV1, TransferRelationImportEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { PART } from './export-consumer';
import { RELATIONS } from './import-consumer';
import type { Counts, UserMapper } from './import-lines';

/** The queue work-items re-imports single relations from. */
export const RELATION_IMPORT_QUEUE = 'work-items.transfer-relation-import';

/** The relations this service re-imports, with the table whose `(project_id, iid)` marks a line as already there. */
export const RELATION_TABLES: Record<string, string> = { issues: 'issues', milestones: 'milestones', merge_requests: 'merge_requests' };

/**
 * Imports `tree/project/<relation>.ndjson` of an unpacked archive into the project, skipping every
 * line whose `iid` the project already has (GitLab's skip-on-duplicate-iid); a line that fails is
 * reported and the rest goes on.
 */
export async function importOneRelation(deps: ServiceDeps, data: RelationImportUnpackedV1): Promise<RelationImportPartCompletedV1> {
  const users: UserMapper = (id) => data.user_map[String(id)] ?? data.user_id;
  const counts: Counts = { labels: 0, milestones: 0, issues: 0, notes: 0, award_emoji: 0, timelogs: 0, merge_requests: 0, snippets: 0 };
  const failures: RelationImportPartCompletedV1['failures'] = [];
  const table = RELATION_TABLES[data.relation];
  const apply = RELATIONS.find(([name]) => name === data.relation)?.[1];
  let skipped = 0;
  const file = table && apply ? await deps.storage.get(`${data.prefix}tree/project/${data.relation}.ndjson`) : null;
  if (file && apply) {
    const existing = new Set<number>((await deps.db(table).where({ project_id: data.project_id }).pluck('iid')).map(Number));
    let n = -1;
    for await (const text of createInterface({ input: file, crlfDelay: Infinity })) {
      n += 1;
      if (!text.trim()) continue;
      try {
        const line = JSON.parse(text) as Record<string, any>;
        if (existing.has(Number(line.iid))) {
          skipped += 1;
          continue;
        }
        await apply(deps, data.project_id, line, users, counts);
        existing.add(Number(line.iid));
      } catch (e) {
        // a database that is gone fails the delivery (it is retried and resumes), not the line
        if (isDatabaseUnavailable(e)) throw e;
        const err = e instanceof Error ? e : new Error(String(e));
        failures.push({ relation_name: data.relation, line_number: n, exception_class: err.name, exception_message: err.message.slice(0, 255) });
      }
    }
  }
  return { relation_import_id: data.relation_import_id, project_id: data.project_id, part: PART, counts, skipped, failures: failures.slice(0, 100) };
}

/** `transfer.relation-import.unpacked` of a relation this service owns → imported (heartbeats while it runs), then reported. */
export function relationImportConsumer(deps: ServiceDeps): Consumer {
  const heartbeat = outboxHeartbeat(deps.db, PART, deps.config);
  return {
    queue: RELATION_IMPORT_QUEUE,
    patterns: [TransferRelationImportEvents.unpacked],
    // about 45 s of retries: a delivery that meets a restarting database resumes once it is back
    options: { prefetch: 1, maxAttempts: 10, retryDelayMs: 1000 },
    handler: async (event) => {
      const data = event.data as RelationImportUnpackedV1;
      if (!RELATION_TABLES[data.relation]) return;
      const job = { kind: 'relation_import' as const, job_id: String(data.relation_import_id), service: PART, part: PART };
      const done = await withHeartbeat(heartbeat, job, () => importOneRelation(deps, data));
      await emit(deps.db, PART, relationImportPartCompleted(PART), done);
    },
  };
}
