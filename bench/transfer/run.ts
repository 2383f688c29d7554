/**
 * The transfer benchmark (issue 28): a project with 10,000 issues, 100,000 notes and 1,000
 * pipelines exported and imported through the gateway, at 1× and 2× that data, each scale on a
 * fresh fleet. Prints export, download and import wall time, the peak RSS (VmHWM) and CPU time of
 * every fleet process, the database's commits, the 2×/1× time ratios, and checks that the imported
 * project has exactly what the source has.
 * Usage: npx tsx bench/transfer/run.ts
 * Env: DATABASE_URL (default the local Postgres), AMQP_URL (default the local RabbitMQ), BENCH_ISSUES
 * (10000 at 1×), BENCH_NOTES (notes per issue, 10), BENCH_PIPELINES (1000 at 1×, three jobs each),
 * BENCH_SCALES (`1,2`), BENCH_PROFILE (a directory: every fleet process is profiled from its start
 * and writes a CPU profile there after the import; the hottest functions of the busiest one are printed), BENCH_SMOKE (100 issues × 10 notes,
 * 10 pipelines, scales 1 and 2).
 */
import { createWriteStream, mkdtempSync, openAsBlob, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDb } from '@anvil/db';
import { startFleet, type Fleet } from '@anvil/testing';
import { countsOf, type Counts } from './counts';
import { cpuSeconds, peakRssMb, type ProcSample } from './proc';
import { hottest } from './profile';
import { api, waitFor } from '../support/fleet-api';
import { seed, type Volume } from './seed';

const SERVICES = ['identity', 'work-items', 'pipelines', 'project-transfer'] as const;

interface ScaleResult {
  scale: number;
  volume: Volume;
  exportS: number;
  downloadS: number;
  archiveMb: number;
  importS: number;
  rss: Record<string, number>;
  cpu: { export: ProcSample; import: ProcSample };
  commits: { export: number; import: number };
  counts: Counts;
  load: number;
}

function pids(fleet: Fleet): Record<string, number> {
  return Object.fromEntries([['gateway', fleet.gateway.process.pid as number], ...SERVICES.map((s) => [s, fleet.services[s].process.pid as number])]);
}

async function commits(fleet: Fleet, databaseUrl: string): Promise<number> {
  const db = createDb({ url: databaseUrl, schema: fleet.schemas.identity, pool: { min: 0, max: 1 } });
  try {
    const r = await db.raw('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()');
    return Number(r.rows[0].xact_commit);
  } finally {
    await db.destroy();
  }
}

async function poll<T>(fetchBody: () => Promise<T>, done: (b: T) => boolean, failed: (b: T) => boolean, what: string, ms: number): Promise<T> {
  let last: T | undefined;
  await waitFor(async () => {
    last = await fetchBody();
    if (failed(last)) throw new Error(`${what} failed: ${JSON.stringify(last)}`);
    return done(last);
  }, what, ms);
  return last as T;
}

async function runScale(scale: number, base: Volume, databaseUrl: string, amqpUrl: string, profileDir: string | undefined): Promise<ScaleResult> {
  const volume = { issues: base.issues * scale, notesPerIssue: base.notesPerIssue, pipelines: base.pipelines * scale };
  const env: Record<string, string> = { PROJECT_EXPORT_LIMIT: '0', PROJECT_DOWNLOAD_EXPORT_LIMIT: '0', PROJECT_IMPORT_LIMIT: '0' };
  if (profileDir) Object.assign(env, { NODE_OPTIONS: `--require ${path.join(__dirname, 'cpu-profile.cjs')}`, BENCH_PROFILE_DIR: path.join(profileDir, `scale-${scale}`) });
  const fleet = await startFleet({ services: [...SERVICES], databaseUrl, amqpUrl, env });
  const work = mkdtempSync(path.join(tmpdir(), 'anvil-bench-transfer-'));
  try {
    const data = await seed(fleet, databaseUrl, volume, `x${scale}`);
    const procs = pids(fleet);
    const call = (m: string, p: string, b?: unknown) => api(fleet, data.token, m, p, b);
    const timeout = 600_000 * scale;

    const cpu0 = cpuSeconds(procs);
    const c0 = await commits(fleet, databaseUrl);
    let t = Date.now();
    await call('POST', `/projects/${data.projectId}/export`, { description: 'benchmarked' });
    await poll(() => call('GET', `/projects/${data.projectId}/export`), (b) => b.export_status === 'finished', (b) => b.export_status === 'failed', 'the export', timeout);
    const exportS = (Date.now() - t) / 1000;
    const cpu1 = cpuSeconds(procs);
    const c1 = await commits(fleet, databaseUrl);

    t = Date.now();
    const file = path.join(work, 'export.tar.gz');
    const res = await fetch(`${fleet.url}/api/v4/projects/${data.projectId}/export/download`, { headers: { 'PRIVATE-TOKEN': data.token } });
    if (res.status !== 200 || !res.body) throw new Error(`download: ${res.status} ${await res.text()}`);
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
    const downloadS = (Date.now() - t) / 1000;
    const archiveMb = statSync(file).size / 1024 / 1024;

    const cpu2 = cpuSeconds(procs);
    const c2 = await commits(fleet, databaseUrl);
    t = Date.now();
    const form = new FormData();
    form.set('path', 'imported');
    form.set('file', await openAsBlob(file), 'export.tar.gz');
    const posted = await fetch(`${fleet.url}/api/v4/projects/import`, { method: 'POST', headers: { 'PRIVATE-TOKEN': data.token }, body: form });
    const created = (await posted.json()) as { id: number };
    if (posted.status !== 201) throw new Error(`import: ${posted.status} ${JSON.stringify(created)}`);
    const status = await poll(() => call('GET', `/projects/${created.id}/import`), (b) => b.import_status === 'finished', (b) => b.import_status === 'failed', 'the import', timeout);
    const importS = (Date.now() - t) / 1000;
    const cpu3 = cpuSeconds(procs);
    const c3 = await commits(fleet, databaseUrl);
    if (status.failed_relations.length) throw new Error(`the import has failed relations: ${JSON.stringify(status.failed_relations.slice(0, 3))}`);

    const source = await countsOf(fleet, databaseUrl, data.projectId);
    const imported = await countsOf(fleet, databaseUrl, created.id);
    const wrong = Object.keys(source).filter((k) => source[k] !== imported[k]);
    if (wrong.length) throw new Error(`the imported project differs from the source: ${wrong.map((k) => `${k} ${imported[k]} (source ${source[k]})`).join(', ')}`);
    if (profileDir) {
      for (const pid of Object.values(procs)) process.kill(pid, 'SIGUSR2');
      await new Promise((r) => setTimeout(r, 5000));
    }
    const diff = (a: ProcSample, b: ProcSample) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));
    return {
      scale, volume, exportS, downloadS, archiveMb, importS, rss: peakRssMb(procs), counts: source,
      cpu: { export: diff(cpu0, cpu1), import: diff(cpu2, cpu3) }, commits: { export: c1 - c0, import: c3 - c2 }, load: loadavg()[0],
    };
  } finally {
    await fleet.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const NAMES = ['gateway', ...SERVICES];

function print(results: ScaleResult[]): void {
  console.log(`\n| scale | issues | notes | pipelines | jobs | members | export s | download s | archive MB | import s | load avg (1 min) |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|---|`);
  for (const r of results) {
    const c = r.counts;
    console.log(`| ${r.scale}× | ${c.issues} | ${c.notes} | ${c.pipelines} | ${c.jobs} | ${c.members} | ${f1(r.exportS)} | ${f1(r.downloadS)} | ${f1(r.archiveMb)} | ${f1(r.importS)} | ${f2(r.load)} |`);
  }
  console.log(`\n| scale | peak RSS MB: ${NAMES.join(' | ')} |`);
  console.log(`|---|${NAMES.map(() => '---').join('|')}|`);
  for (const r of results) console.log(`| ${r.scale}× | ${NAMES.map((n) => f1(r.rss[n])).join(' | ')} |`);
  console.log(`\n| scale | phase | CPU s: ${NAMES.join(' | ')} | commits |`);
  console.log(`|---|---|${NAMES.map(() => '---').join('|')}|---|`);
  for (const r of results) {
    for (const phase of ['export', 'import'] as const) console.log(`| ${r.scale}× | ${phase} | ${NAMES.map((n) => f2(r.cpu[phase][n])).join(' | ')} | ${r.commits[phase]} |`);
  }
  const one = results.find((r) => r.scale === 1);
  for (const r of results) {
    if (!one || r === one) continue;
    console.log(`\n${r.scale}× / 1×: export ${f2(r.exportS / one.exportS)}×, import ${f2(r.importS / one.importS)}× (bound: ${f2(r.scale * 1.1)}×)`);
  }
  console.log('\nimported counts equal the source at every scale');
}

async function main(): Promise<void> {
  const smoke = !!process.env.BENCH_SMOKE;
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const base: Volume = {
    issues: Number(process.env.BENCH_ISSUES ?? (smoke ? 100 : 10_000)),
    notesPerIssue: Number(process.env.BENCH_NOTES ?? 10),
    pipelines: Number(process.env.BENCH_PIPELINES ?? (smoke ? 10 : 1000)),
  };
  const scales = (process.env.BENCH_SCALES ?? '1,2').split(',').map(Number);
  const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;
  console.log(`transfer benchmark, ${new Date().toISOString()}: ${base.issues} issues × ${base.notesPerIssue} notes, ${base.pipelines} pipelines at 1×; scales ${scales.join(', ')}`);
  const results: ScaleResult[] = [];
  for (const scale of scales) results.push(await runScale(scale, base, databaseUrl, amqpUrl, profileDir));
  print(results);
  if (profileDir) for (const scale of scales) hottest(path.join(profileDir, `scale-${scale}`), 20);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
