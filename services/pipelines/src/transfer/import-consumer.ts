import { createInterface } from 'node:readline';
import { isDatabaseUnavailable } from '@anvil/db';
import { emit, importPartCompleted, outboxHeartbeat, withHeartbeat, partWanted, type ImportPartCompletedV1, type ImportUnpackedV1, TransferImportEvents } from '@anvil/events';
import type { Knex } from 'knex';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { PART } from './export-consumer';
import { PIPELINES_FILE } from './export-writer';
import { type Counts, importPipeline, importPipelineBatch, jobsOf, type UserMapper } from './import-lines';

/** The queue pipelines imports its relation from. */
export const IMPORT_QUEUE = 'pipelines.transfer-import';

type Failure = ImportPartCompletedV1['failures'][number];

/** Pipeline lines imported per transaction. */
export const BATCH_LINES = 200;

/**
 * Adds to `counts` the lines whose iid the project already had before this delivery: a resumed or
 * re-driven import skips them, and reports them as held, so its counts are the archive's whole, not
 * only this delivery's. `seen` holds the iids this delivery has met (a repeated iid counts once).
 */
async function countHeld(db: Knex, projectId: number, lines: Record<string, any>[], counts: Counts, seen: Set<number>): Promise<void> {
  const fresh: Record<string, any>[] = [];
  for (const line of lines) {
    if (!Number.isSafeInteger(line.iid) || line.iid <= 0 || seen.has(line.iid)) continue;
    seen.add(line.iid);
    fresh.push(line);
  }
  if (!fresh.length) return;
  const have = new Set((await db('pipelines').where({ project_id: projectId }).whereIn('iid', fresh.map((l) => l.iid)).pluck('iid')).map(Number));
  for (const line of fresh) {
    if (!have.has(line.iid)) continue;
    counts.ci_pipelines += 1;
    counts.stages += ((line.stages ?? []) as unknown[]).length;
    counts.builds += jobsOf(line).length;
  }
}

/**
 * Imports `tree/project/ci_pipelines.ndjson` of an unpacked archive as it streams from storage, in
 * batches of lines, each in one transaction of a few multi-row statements; a batch that fails (or
 * holds a line without an iid) goes line by line, each line in its own transaction. A line that fails
 * is reported as a failed relation and the import goes on; a database that is gone fails the delivery
 * instead, which is retried. An archive without the file imports nothing. Pipelines already there (by
 * iid) are skipped and counted, so a resumed import reports the whole archive.
 */
export async function importPipelines(deps: ServiceDeps, data: ImportUnpackedV1): Promise<ImportPartCompletedV1> {
  const users: UserMapper = (id) => data.user_map[String(id)] ?? data.user_id;
  const counts: Counts = { ci_pipelines: 0, stages: 0, builds: 0 };
  const failures: Failure[] = [];
  const fail = (n: number, e: unknown) => {
    // a database that is gone fails the delivery (it is retried and resumes), not the line
    if (isDatabaseUnavailable(e)) throw e;
    const err = e instanceof Error ? e : new Error(String(e));
    failures.push({ relation_name: 'ci_pipelines', line_number: n, exception_class: err.name, exception_message: err.message.slice(0, 255) });
  };
  let batch: { n: number; line: Record<string, any> }[] = [];
  const seen = new Set<number>();
  const flush = async () => {
    const lines = batch;
    batch = [];
    if (!lines.length) return;
    const local: Counts = {};
    await countHeld(deps.db, data.project_id, lines.map((l) => l.line), counts, seen);
    try {
      await deps.db.transaction((trx) => importPipelineBatch(trx, data.project_id, lines.map((l) => l.line), users, local));
      for (const [k, v] of Object.entries(local)) counts[k] = (counts[k] ?? 0) + v;
    } catch (e) {
      if (isDatabaseUnavailable(e)) throw e;
      for (const { n, line } of lines) await deps.db.transaction((trx) => importPipeline(trx, data.project_id, line, users, counts)).catch((e) => fail(n, e));
    }
  };
  const file = await deps.storage.get(`${data.prefix}${PIPELINES_FILE}`);
  let n = -1;
  for await (const text of file ? createInterface({ input: file, crlfDelay: Infinity }) : []) {
    n += 1;
    if (!text.trim()) continue;
    try {
      batch.push({ n, line: JSON.parse(text) });
      if (batch.length >= BATCH_LINES) await flush();
    } catch (e) {
      fail(n, e);
    }
  }
  await flush();
  failures.sort((a, b) => a.line_number - b.line_number);
  return { import_id: data.import_id, project_id: data.project_id, part: PART, counts, failures: failures.slice(0, 100) };
}

/** `transfer.import.unpacked` → this service's pipelines imported (heartbeats while it runs), then its part reported. */
export function importConsumer(deps: ServiceDeps): Consumer {
  const heartbeat = outboxHeartbeat(deps.db, PART, deps.config);
  return {
    queue: IMPORT_QUEUE,
    patterns: [TransferImportEvents.unpacked],
    // about 45 s of retries: a delivery that meets a restarting database resumes once it is back
    options: { prefetch: 1, maxAttempts: 10, retryDelayMs: 1000 },
    handler: async (event) => {
      // a re-drive of a stalled import may name only the parts still missing
      if (!partWanted(event.data as ImportUnpackedV1, PART)) return;
      const data = event.data as ImportUnpackedV1;
      const job = { kind: 'import' as const, job_id: String(data.import_id), service: PART, part: PART };
      const done = await withHeartbeat(heartbeat, job, () => importPipelines(deps, data));
      await emit(deps.db, PART, importPartCompleted(PART), done);
    },
  };
}
