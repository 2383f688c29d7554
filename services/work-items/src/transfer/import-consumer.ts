import { createInterface } from 'node:readline';
import { emit, importPartCompleted, type ImportPartCompletedV1, type ImportUnpackedV1, TransferImportEvents } from '@anvil/events';
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
 * Imports `tree/project/{labels,milestones,issues,merge_requests,snippets}.ndjson` of an unpacked archive as
 * it streams from storage. Issues go in batches, each in one transaction of a few multi-row statements;
 * a batch that fails is retried line by line. Every other line is its own transaction. A line that fails
 * is reported as a failed relation and the import goes on. Then `work-items.import.part.completed` with the counts.
 */
export async function importRelations(deps: ServiceDeps, data: ImportUnpackedV1): Promise<ImportPartCompletedV1> {
  const users: UserMapper = (id) => data.user_map[String(id)] ?? data.user_id;
  const counts: Counts = { labels: 0, milestones: 0, issues: 0, notes: 0, award_emoji: 0, timelogs: 0, merge_requests: 0, snippets: 0 };
  const failures: Failure[] = [];
  const fail = (relation: string, n: number, e: unknown) => {
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
      } catch {
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
  return { import_id: data.import_id, project_id: data.project_id, part: PART, counts, failures: failures.slice(0, 100) };
}

/** `transfer.import.unpacked` → this service's relations imported, then its part reported. */
export function importConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: IMPORT_QUEUE,
    patterns: [TransferImportEvents.unpacked],
    options: { prefetch: 1 },
    handler: async (event) => {
      const done = await importRelations(deps, event.data as ImportUnpackedV1);
      await emit(deps.db, PART, importPartCompleted(PART), done);
    },
  };
}
