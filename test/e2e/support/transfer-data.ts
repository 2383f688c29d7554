import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '@anvil/db';
import { type Fleet, startFleet, testDatabaseUrl } from '@anvil/testing';

type Knex = ReturnType<typeof createDb>;
import { lines, readArchive } from '../../../services/project-transfer/test/support/archive';
import { call } from './fleet-api';

/** A connection to one fleet service's schema (call `destroy()` when done). */
export function schemaDb(fleet: Fleet, service: string, url = testDatabaseUrl()): Knex {
  return createDb({ url, schema: fleet.schemas[service] });
}

async function columnsOf(db: Knex, schema: string, table: string): Promise<string[]> {
  const rows = await db('information_schema.columns').where({ table_schema: schema, table_name: table }).whereNot('column_name', 'id').where('is_generated', 'NEVER').select('column_name');
  return rows.map((r: { column_name: string }) => r.column_name);
}

/**
 * Gives `projectId` `n` more issues, copies of the issue with iid 1 (iids 2…n+1), each with a copy of
 * every note of that issue: an export large enough to take a moment, written in two statements.
 */
export async function seedIssues(fleet: Fleet, projectId: number, n: number, url = testDatabaseUrl()): Promise<void> {
  const schema = fleet.schemas['work-items'];
  const db = schemaDb(fleet, 'work-items', url);
  try {
    const issueCols = await columnsOf(db, schema, 'issues');
    const noteCols = await columnsOf(db, schema, 'notes');
    const pick = (cols: string[], set: Record<string, string>) => cols.map((c) => set[c] ?? `src.${c}`).join(', ');
    const q = (cols: string[]) => cols.map((c) => `"${c}"`).join(', ');
    await db.raw(
      `INSERT INTO issues (${q(issueCols)}) SELECT ${pick(issueCols, { iid: 'src.iid + g', title: "src.title || ' ' || g" })}
       FROM issues src, generate_series(1, ?) g WHERE src.project_id = ? AND src.iid = 1`,
      [n, projectId],
    );
    await db.raw(
      `INSERT INTO notes (${q(noteCols)}) SELECT ${pick(noteCols, { noteable_id: 'i.id', body: "src.body || ' ' || i.iid" })}
       FROM notes src JOIN issues o ON o.id = src.noteable_id AND src.noteable_type = 'Issue' AND o.project_id = ? AND o.iid = 1
       JOIN issues i ON i.project_id = o.project_id AND i.iid > 1 ORDER BY i.iid, src.id`,
      [projectId],
    );
  } finally {
    await db.destroy();
  }
}

/** Polls `fn` every `everyMs` until it returns something truthy; throws `what` after `ms`. */
export async function until<T>(what: string | (() => string), fn: () => Promise<T | null | undefined | false>, ms = 45_000, everyMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    let v: T | null | undefined | false = null;
    try {
      v = await fn();
    } catch {
      /* a restarting process: try again */
    }
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** GET through the gateway; null when the answer is not a JSON 2xx (a process restarting). */
export async function tryGet(fleet: Fleet, token: string, p: string): Promise<any> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, { headers: { 'PRIVATE-TOKEN': token } });
  if (!res.ok) return null;
  return res.json();
}

/** Waits until the caller's export of `projectId` is `finished` or `failed` and answers the status record. */
export async function exportEnded(fleet: Fleet, token: string, projectId: number, ms = 45_000): Promise<any> {
  return until('the export to end', async () => {
    const s = await tryGet(fleet, token, `/projects/${projectId}/export`);
    return s && ['finished', 'failed'].includes(s.export_status) && s;
  }, ms, 150);
}

/** Waits until the import of `projectId` is `finished` or `failed` and answers the status record. */
export async function importEnded(fleet: Fleet, token: string, projectId: number, ms = 45_000): Promise<any> {
  let last: unknown = null;
  return until(() => `the import to end (last status ${JSON.stringify(last)})`, async () => {
    const s = await tryGet(fleet, token, `/projects/${projectId}/import`);
    if (s && !['finished', 'failed'].includes(s.import_status)) last = s;
    return s && ['finished', 'failed'].includes(s.import_status) && s;
  }, ms, 150);
}

/** What a downloaded archive holds: entry names, and per ndjson file its lines. */
export async function download(fleet: Fleet, token: string, projectId: number): Promise<{ buffer: Buffer; names: string[]; ndjson: Record<string, Record<string, any>[]> }> {
  const res = await fetch(`${fleet.url}/api/v4/projects/${projectId}/export/download`, { headers: { 'PRIVATE-TOKEN': token } });
  if (res.status !== 200) throw new Error(`download answered ${res.status}: ${await res.text()}`);
  const buffer = Buffer.from(await res.arrayBuffer());
  const entries = await readArchive(buffer);
  const ndjson: Record<string, Record<string, any>[]> = {};
  for (const e of entries) if (e.name.endsWith('.ndjson')) ndjson[path.basename(e.name, '.ndjson')] = lines(e.body);
  return { buffer, names: entries.map((e) => e.name), ndjson };
}

/** Imports `archive` as `path` in the caller's namespace (`POST /projects/import`); answers the import record. */
export async function importArchive(fleet: Fleet, token: string, archive: Buffer, projectPath: string): Promise<any> {
  const form = new FormData();
  form.append('path', projectPath);
  form.append('file', new Blob([archive]), 'export.tar.gz');
  const res = await fetch(`${fleet.url}/api/v4/projects/import`, { method: 'POST', headers: { 'PRIVATE-TOKEN': token }, body: form });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`import answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Counts of what a project holds in work-items: issues, distinct iids, notes on its issues. */
export async function workItemCounts(fleet: Fleet, projectId: number, url = testDatabaseUrl()): Promise<{ issues: number; iids: number; notes: number; maxIid: number }> {
  const db = schemaDb(fleet, 'work-items', url);
  try {
    const i = await db('issues').where({ project_id: projectId }).first(db.raw('count(*)::int AS n, count(DISTINCT iid)::int AS d, coalesce(max(iid), 0)::int AS m'));
    const n = await db('notes').where({ project_id: projectId, noteable_type: 'Issue' }).first(db.raw('count(*)::int AS n'));
    return { issues: i.n, iids: i.d, notes: n.n, maxIid: i.m };
  } finally {
    await db.destroy();
  }
}

/** Whether a job's part file is in the fleet's storage yet. */
export function partFile(fleet: Fleet, jobId: string, relative: string): boolean {
  return existsSync(path.join(fleet.storageDir, 'exports', jobId, relative));
}

/** The archives in the fleet's storage (`exports/*.tar.gz`). */
export function archives(fleet: Fleet): string[] {
  const dir = path.join(fleet.storageDir, 'exports');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tar.gz')) : [];
}

/** A project with one issue (iid 1) carrying two notes, then `n` copies of it. */
export async function seededProject(fleet: Fleet, token: string, projectPath: string, n: number, url = testDatabaseUrl()): Promise<{ id: number }> {
  const project = await call(fleet, token, 'POST', '/projects', { name: projectPath, path: projectPath });
  const issue = await call(fleet, token, 'POST', `/projects/${project.id}/issues`, { title: 'seed', description: 'a seeded issue whose copies make the export take a moment' });
  await call(fleet, token, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'first note '.repeat(20) });
  await call(fleet, token, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'second note '.repeat(20) });
  await seedIssues(fleet, project.id, n, url);
  return project;
}

/**
 * identity, work-items and two project-transfer replicas whose sweeps run every second with the
 * given stall time and re-drive limit (and `env` besides), rate limits off.
 */
export function startSweepingFleet(stallSeconds: number, maxRedrives: number, env: Record<string, string> = {}): Promise<Fleet> {
  return startFleet({
    services: ['identity', 'work-items', 'project-transfer'],
    replicas: { 'project-transfer': 2 },
    env: {
      EXPORT_PARTS: 'identity,work-items', IMPORT_PARTS: 'identity,work-items',
      TRANSFER_SWEEP_INTERVAL_SECONDS: '1', TRANSFER_STALL_SECONDS: String(stallSeconds), TRANSFER_MAX_REDRIVES: String(maxRedrives),
      PROJECT_EXPORT_LIMIT: '0', PROJECT_DOWNLOAD_EXPORT_LIMIT: '0', PROJECT_IMPORT_LIMIT: '0',
      ...env,
    },
  });
}
