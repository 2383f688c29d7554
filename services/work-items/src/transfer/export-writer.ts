import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Storage } from '@anvil/storage';
import { issueLine, labelLine, mergeRequestLine, milestoneLine, type Nested, noteLine, snippetLine, timelogLine } from './export-lines';

type Row = Record<string, unknown>;

/** Records read per query: each batch's nested relations come in one query per relation (no N+1). */
export const BATCH = 500;

function groupBy(rows: Row[], key: string): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  for (const r of rows) {
    const k = Number(r[key]);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(r);
  }
  return out;
}

/** Keyset pages of `table` rows of the project, by id. */
async function* pages(db: Knex, table: string, projectId: number): AsyncGenerator<Row[]> {
  let after = 0;
  for (;;) {
    const rows = (await db(table).where({ project_id: projectId }).where('id', '>', after).orderBy('id').limit(BATCH)) as Row[];
    if (!rows.length) return;
    yield rows;
    after = Number(rows[rows.length - 1].id);
    if (rows.length < BATCH) return;
  }
}

/** Notes of `type` on `ids`, each with its author's name and award emoji. */
async function notesOf(db: Knex, type: string, ids: number[]): Promise<Map<number, Row[]>> {
  const notes = (await db('notes as n').leftJoin('users as u', 'u.id', 'n.author_id').where('n.noteable_type', type).whereIn('n.noteable_id', ids).orderBy('n.id').select('n.*', 'u.name as author_name')) as Row[];
  const awards = groupBy(await db('award_emoji').where('awardable_type', 'Note').whereIn('awardable_id', notes.map((n) => Number(n.id))).orderBy('id'), 'awardable_id');
  const lines = notes.map((n) => ({ ...noteLine(n, (n.author_name as string) ?? null, awards.get(Number(n.id)) ?? []), noteable_id: n.noteable_id }));
  const out = groupBy(lines, 'noteable_id');
  for (const list of out.values()) for (const l of list) delete l.noteable_id;
  return out;
}

/** The relations nested in a batch of issues or merge requests. */
async function nestedOf(db: Knex, kind: 'Issue' | 'MergeRequest', rows: Row[]): Promise<(r: Row) => Nested> {
  const ids = rows.map((r) => Number(r.id));
  const [linkTable, linkKey, assigneeTable] = kind === 'Issue' ? ['issue_labels', 'issue_id', 'issue_assignees'] : ['merge_request_labels', 'merge_request_id', 'merge_request_assignees'];
  const notes = await notesOf(db, kind, ids);
  const awards = groupBy(await db('award_emoji').where('awardable_type', kind).whereIn('awardable_id', ids).orderBy('id'), 'awardable_id');
  const labels = groupBy(await db(`${linkTable} as x`).join('labels as l', 'l.id', 'x.label_id').whereIn(`x.${linkKey}`, ids).orderBy('l.title').select('l.*', `x.${linkKey}`), linkKey);
  const assignees = groupBy(await db(assigneeTable).whereIn(linkKey, ids), linkKey);
  const timelogs = groupBy(await db('timelogs').whereIn(kind === 'Issue' ? 'issue_id' : 'merge_request_id', ids).orderBy('id'), kind === 'Issue' ? 'issue_id' : 'merge_request_id');
  const milestoneIds = [...new Set(rows.map((r) => r.milestone_id).filter((v) => v !== null))] as number[];
  const milestones = new Map(((await db('milestones').whereIn('id', milestoneIds)) as Row[]).map((m) => [Number(m.id), m]));
  return (r) => {
    const id = Number(r.id);
    return {
      notes: notes.get(id) ?? [], awards: awards.get(id) ?? [], labels: labels.get(id) ?? [],
      milestone: r.milestone_id ? milestones.get(Number(r.milestone_id)) ?? null : null,
      assignees: (assignees.get(id) ?? []).map((a) => Number(a.user_id)),
      timelogs: (timelogs.get(id) ?? []).map((t) => timelogLine({ ...t, project_id: r.project_id })),
    };
  };
}

/** The lines of every relation this service exports, each a generator over keyset pages. */
function relations(db: Knex, projectId: number, counts: Record<string, number>): Record<string, () => AsyncGenerator<Row>> {
  const count = (k: string, n = 1) => (counts[k] = (counts[k] ?? 0) + n);
  return {
    labels: async function* () {
      for await (const page of pages(db, 'labels', projectId)) for (const l of page) yield (count('labels'), labelLine(l));
    },
    milestones: async function* () {
      for await (const page of pages(db, 'milestones', projectId)) for (const m of page) yield (count('milestones'), milestoneLine(m));
    },
    issues: async function* () {
      for await (const page of pages(db, 'issues', projectId)) {
        const nested = await nestedOf(db, 'Issue', page);
        for (const i of page) {
          const n = nested(i);
          count('issues');
          count('notes', n.notes.length);
          count('award_emoji', n.awards.length + n.notes.reduce((s, x) => s + (x.award_emoji as Row[]).length, 0));
          count('timelogs', n.timelogs.length);
          yield issueLine(i, n);
        }
      }
    },
    merge_requests: async function* () {
      for await (const page of pages(db, 'merge_requests', projectId)) {
        const nested = await nestedOf(db, 'MergeRequest', page);
        for (const m of page) yield (count('merge_requests'), mergeRequestLine(m, nested(m)));
      }
    },
    snippets: async function* () {
      for await (const page of pages(db, 'snippets', projectId)) {
        const ids = page.map((s) => Number(s.id));
        const notes = await notesOf(db, 'Snippet', ids);
        const awards = groupBy(await db('award_emoji').where('awardable_type', 'Snippet').whereIn('awardable_id', ids).orderBy('id'), 'awardable_id');
        for (const s of page) yield (count('snippets'), snippetLine(s, { notes: notes.get(Number(s.id)) ?? [], awards: awards.get(Number(s.id)) ?? [] }));
      }
    },
  };
}

async function* ndjson(lines: AsyncGenerator<Row>): AsyncGenerator<string> {
  for await (const l of lines) yield JSON.stringify(l) + '\n';
}

/** What work-items' part of an export wrote. */
export interface PartResult {
  files: string[];
  counts: Record<string, number>;
}

/**
 * Writes work-items' part of an export under `prefix`: `tree/project/{labels,milestones,issues,
 * merge_requests,snippets}.ndjson`, each streamed page by page. Writing again overwrites the same keys.
 */
export async function writeWorkItemsPart(db: Knex, storage: Storage, prefix: string, projectId: number): Promise<PartResult> {
  const counts: Record<string, number> = { labels: 0, milestones: 0, issues: 0, notes: 0, award_emoji: 0, timelogs: 0, merge_requests: 0, snippets: 0 };
  const files: string[] = [];
  for (const [name, lines] of Object.entries(relations(db, projectId, counts))) {
    const file = `tree/project/${name}.ndjson`;
    await storage.put(prefix + file, Readable.from(ndjson(lines())));
    files.push(file);
  }
  return { files, counts };
}
