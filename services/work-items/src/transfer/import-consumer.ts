import { createInterface } from 'node:readline';
import { isDatabaseUnavailable } from '@anvil/db';
import type { Knex } from 'knex';
import { emit, importPartCompleted, outboxHeartbeat, withHeartbeat, partWanted, type ImportPartCompletedV1, type ImportUnpackedV1, TransferImportEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { PART } from './export-consumer';
import { importIssueBatch } from './import-batch';
import { importMergeRequest, importSnippet } from './import-issuables';
import { type Counts, importIssue, labelId, milestoneId, type UserMapper } from './import-lines';

/** The queue work-items imports its relations from. */
export const IMPORT_QUEUE = 'work-items.transfer-import';

type Failure = ImportPartCompletedV1['failures'][number];

/** What each relation file's lines become, in GitLab's restore order. */
export const RELATIONS: [string, (deps: ServiceDeps, projectId: number, line: Record<string, any>, users: UserMapper, counts: Counts) => Promise<void>][] = [
  ['labels', (deps, projectId, line, _u, counts) => deps.db.transaction(async (trx) => void (await labelId(trx, projectId, line, counts)))],
  ['milestones', (deps, projectId, line, _u, counts) => deps.db.transaction(async (trx) => void (await milestoneId(trx, projectId, line, counts)))],
  ['issues', (deps, projectId, line, users, counts) => deps.db.transaction((trx) => importIssue(trx, projectId, line, users, counts))],
  ['merge_requests', (deps, projectId, line, users, counts) => deps.db.transaction((trx) => importMergeRequest(trx, projectId, line, users, counts))],
  ['snippets', (deps, projectId, line, users, counts) => deps.db.transaction((trx) => importSnippet(trx, projectId, line, users, counts))],
];

/** Issue lines imported per transaction (fewer when their notes add up to `BATCH_NOTES`). */
export const BATCH_LINES = 200;
const BATCH_NOTES = 4000;

/**
 * What `projectId` holds, by relation, as an import counts it. The project was created for the import,
 * so this is what the import brought in, also when a redelivery resumed it half-way (the lines a
 * killed delivery had committed are skipped by iid, and a delivery's own counts would miss them).
 */
export async function projectCounts(db: Knex, projectId: number): Promise<Counts> {
  const { rows } = await db.raw(
    `WITH i AS (SELECT id FROM issues WHERE project_id = :p), m AS (SELECT id FROM merge_requests WHERE project_id = :p),
          s AS (SELECT id FROM snippets WHERE project_id = :p), n AS (SELECT id FROM notes WHERE project_id = :p)
     SELECT (SELECT count(*) FROM labels WHERE project_id = :p)::int AS labels,
            (SELECT count(*) FROM milestones WHERE project_id = :p)::int AS milestones,
            (SELECT count(*) FROM i)::int AS issues,
            (SELECT count(*) FROM n)::int AS notes,
            (SELECT count(*) FROM award_emoji a WHERE (a.awardable_type = 'Issue' AND a.awardable_id IN (SELECT id FROM i))
               OR (a.awardable_type = 'MergeRequest' AND a.awardable_id IN (SELECT id FROM m))
               OR (a.awardable_type = 'Snippet' AND a.awardable_id IN (SELECT id FROM s))
               OR (a.awardable_type = 'Note' AND a.awardable_id IN (SELECT id FROM n)))::int AS award_emoji,
            (SELECT count(*) FROM timelogs WHERE issue_id IN (SELECT id FROM i))::int AS timelogs,
            (SELECT count(*) FROM m)::int AS merge_requests,
            (SELECT count(*) FROM s)::int AS snippets`,
    { p: projectId },
  );
  return rows[0] as Counts;
}

/**
 * Imports `tree/project/{labels,milestones,issues,merge_requests,snippets}.ndjson` of an unpacked archive as
 * it streams from storage. Issues go in batches, each in one transaction of a few multi-row statements;
 * a batch that fails is retried line by line. Every other line is its own transaction. A line that fails
 * is reported as a failed relation and the import goes on; a database that is gone fails the delivery
 * instead, which is retried. Lines already imported (by iid; by title for labels and milestones) are
 * skipped, so a redelivered import resumes where a killed one stopped. Then
 * `work-items.import.part.completed` with what the project holds (`projectCounts`).
 */
export async function importRelations(deps: ServiceDeps, data: ImportUnpackedV1): Promise<ImportPartCompletedV1> {
  const users: UserMapper = (id) => data.user_map[String(id)] ?? data.user_id;
  const counts: Counts = { labels: 0, milestones: 0, issues: 0, notes: 0, award_emoji: 0, timelogs: 0, merge_requests: 0, snippets: 0 };
  const failures: Failure[] = [];
  const fail = (relation: string, n: number, e: unknown) => {
    // a database that is gone fails the delivery (it is retried and resumes), not the line
    if (isDatabaseUnavailable(e)) throw e;
    const err = e instanceof Error ? e : new Error(String(e));
    failures.push({ relation_name: relation, line_number: n, exception_class: err.name, exception_message: err.message.slice(0, 255) });
  };
  for (const [relation, apply] of RELATIONS) {
    const file = await deps.storage.get(`${data.prefix}tree/project/${relation}.ndjson`);
    if (!file) continue;
    let batch: { n: number; line: Record<string, any> }[] = [];
    let batchNotes = 0;
    const flush = async () => {
      const lines = batch;
      batch = [];
      batchNotes = 0;
      if (!lines.length) return;
      const local: Counts = {};
      try {
        await deps.db.transaction((trx) => importIssueBatch(trx, data.project_id, lines.map((l) => l.line), users, local));
        for (const [k, v] of Object.entries(local)) counts[k] = (counts[k] ?? 0) + v;
      } catch (e) {
        if (isDatabaseUnavailable(e)) throw e;
        for (const { n, line } of lines) await apply(deps, data.project_id, line, users, counts).catch((e) => fail(relation, n, e));
      }
    };
    let n = -1;
    for await (const text of createInterface({ input: file, crlfDelay: Infinity })) {
      n += 1;
      if (!text.trim()) continue;
      try {
        const line = JSON.parse(text);
        if (relation !== 'issues') {
          await apply(deps, data.project_id, line, users, counts);
          continue;
        }
        batch.push({ n, line });
        batchNotes += Array.isArray(line?.notes) ? line.notes.length : 0;
        if (batch.length >= BATCH_LINES || batchNotes >= BATCH_NOTES) await flush();
      } catch (e) {
        fail(relation, n, e);
      }
    }
    await flush();
  }
  const order = (f: Failure) => RELATIONS.findIndex(([name]) => name === f.relation_name);
  failures.sort((a, b) => order(a) - order(b) || a.line_number - b.line_number);
  return { import_id: data.import_id, project_id: data.project_id, part: PART, counts: await projectCounts(deps.db, data.project_id), failures: failures.slice(0, 100) };
}

/** `transfer.import.unpacked` → this service's relations imported (heartbeats while it runs), then its part reported. */
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
      const done = await withHeartbeat(heartbeat, job, () => importRelations(deps, data));
      await emit(deps.db, PART, importPartCompleted(PART), done);
    },
  };
}
