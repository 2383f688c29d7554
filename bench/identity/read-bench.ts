/**
 * Read-path benchmark of the identity service: `GET /projects/:id`, `GET /projects` (a page of 20)
 * and `GET /groups/:id` (20 projects embedded), called directly with a context signed here exactly
 * as the gateway signs it, as a Developer of a private project in a private subgroup; and `floor`,
 * the same service pipeline answering one primary-key read, for reference. Prints the queries each
 * request makes with their EXPLAIN, then req/s, latency and CPU per request (service and Postgres).
 *
 *   npx tsx bench/identity/read-bench.ts            # queries per request + EXPLAIN, then wrk
 *   BENCH_PHASES=queries npx tsx bench/identity/read-bench.ts
 *   BENCH_PROFILE=1 npx tsx bench/identity/read-bench.ts   # CPU profile of one wrk run per target
 *   BENCH_SMOKE=1 npx tsx bench/identity/read-bench.ts     # a tenth of the data, one 1-second round each
 *
 * Env: DATABASE_URL (default the local trust Postgres), BENCH_SECONDS (10), BENCH_CONNECTIONS (32),
 * BENCH_THREADS (2), BENCH_ROUNDS (3; the round with the least CPU per request is kept), BENCH_TARGETS
 * (comma list of floor, project, projects, group), BENCH_PHASES
 * (`queries,wrk`), BENCH_SCALE (1 = 2000 users, 300 groups, 8000 projects, ~32k memberships).
 * Needs `wrk` on PATH. Seeds a fresh schema in-process and drops it at the end.
 */
import { randomBytes } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Actor, CONTEXT_HEADER, ContextSigner, generateContextKeys, ProjectScope, GroupScope } from '@anvil/auth';
import { dropSchema, type Knex } from '@anvil/db';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ctx } from '@anvil/http';
import { bootService, RunningService, serviceApp } from '@anvil/runtime';
import { identityService } from '@anvil/identity';
import { seed, Seeded } from './seed';
import { runWrk, WrkResult } from '../gateway/wrk';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SMOKE = !!process.env.BENCH_SMOKE;
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? (SMOKE ? 8 : 32));
const THREADS = Number(process.env.BENCH_THREADS ?? (SMOKE ? 1 : 2));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
const WARMUP = SMOKE ? 0 : 2;
const SCALE = Number(process.env.BENCH_SCALE ?? (SMOKE ? 0.1 : 1));
const PHASES = (process.env.BENCH_PHASES ?? (SMOKE ? 'wrk' : 'queries,wrk')).split(',');
const keys = generateContextKeys();
const signer = new ContextSigner(keys.privateKey);

interface Target {
  name: string;
  path: string;
  /** Served by the floor app (same pipeline, one primary-key query) instead of identity. */
  floor?: boolean;
  project?: ProjectScope;
  group?: GroupScope;
}

function targets(s: Seeded): Target[] {
  const all: Target[] = [
    { name: 'floor', path: `/api/v4/projects/${s.project.id}/floor`, project: s.project, floor: true },
    { name: 'project', path: `/api/v4/projects/${s.project.id}`, project: s.project },
    { name: 'projects', path: '/api/v4/projects?per_page=20' },
    { name: 'group', path: `/api/v4/groups/${s.group.id}`, group: s.group },
  ];
  const only = process.env.BENCH_TARGETS?.split(',');
  return only ? all.filter((t) => only.includes(t.name)) : all;
}

/** The `x-anvil-context` value the gateway would send for `GET path` (valid for 15 minutes). */
function contextFor(t: Target, user: Actor): string {
  return signer.sign({ rid: randomBytes(8).toString('hex'), m: 'GET', p: t.path, aud: 'identity', base: 'http://127.0.0.1:8080', user, scopes: ['api'], auth: 'pat', project: t.project, group: t.group, exp: Date.now() + 15 * 60_000 });
}

/** Runs one request of each target, printing its queries and their EXPLAIN ANALYZE. */
async function queries(svc: RunningService, s: Seeded): Promise<void> {
  for (const t of targets(s).filter((x) => !x.floor)) {
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const listen = (q: { sql: string; bindings?: unknown[] }) => {
      // the outbox relay polls on the same pool; its queries are not the request's
      if (!/\boutbox\b/.test(q.sql)) seen.push({ sql: q.sql, bindings: [...(q.bindings ?? [])] });
    };
    svc.deps.db.on('query', listen);
    const res = await fetch(`${svc.url}${t.path}`, { headers: { [CONTEXT_HEADER]: contextFor(t, s.user) } });
    await res.arrayBuffer();
    svc.deps.db.off('query', listen);
    console.log(`\n## ${t.name}: GET ${t.path} → ${res.status}, ${seen.length} queries`);
    for (const q of seen) {
      const ordered: unknown[] = [];
      const sql = q.sql.replace(/\$(\d+)/g, (_, n: string) => (ordered.push(q.bindings[Number(n) - 1]), '?'));
      // the plan of the last of a few runs (warm caches), with the least planning/execution time seen
      let lines: string[] = [];
      let best = { planning: Infinity, execution: Infinity };
      for (let i = 0; i < 5; i++) {
        const plan = await svc.deps.db.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, ordered as never[]);
        lines = (plan.rows as Record<string, string>[]).map((r) => r['QUERY PLAN']);
        const time = (what: string) => Number(new RegExp(`${what} Time: ([\\d.]+)`).exec(lines.join('\n'))?.[1] ?? NaN);
        best = { planning: Math.min(best.planning, time('Planning')), execution: Math.min(best.execution, time('Execution')) };
      }
      lines = lines.filter((l) => !/(Planning|Execution) Time/.test(l));
      lines.push(`Planning Time: ${best.planning.toFixed(3)} ms (least of 5)`, `Execution Time: ${best.execution.toFixed(3)} ms (least of 5)`);
      console.log(`\n${q.sql.replace(/\s+/g, ' ').slice(0, process.env.BENCH_FULL_SQL ? undefined : 240)}`);
      console.log(lines.filter((l) => process.env.BENCH_FULL_PLAN || /Scan|Loop|Join|Planning Time|Execution Time|SubPlan|InitPlan/.test(l)).map((l) => `  ${l}`).join('\n'));
    }
  }
}

/** Top self-time functions of a CPU profile, as `ms  function  file:line`. */
function topFunctions(profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[]; samples: number[]; timeDeltas: number[] }, n = 25): string[] {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'}  ${f.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/(services|libs)\//, '$1/')}:${f.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + (self.get(node.id) ?? 0));
  }
  const total = [...byFn.values()].reduce((a, b) => a + b, 0);
  return [...byFn.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
}

/** One wrk run, the service's CPU time per request in it (µs; this process, user + system) and its Postgres backends'. */
type Measured = WrkResult & { cpu: number; pgCpu: number };

/** Backend pids of the pool's open connections (node-postgres keeps each one's `processID`). */
function poolBackendPids(db: Knex): number[] {
  const pool = (db.client as { pool?: { free: { resource: { processID?: number } }[]; used: { resource: { processID?: number } }[] } }).pool;
  return [...(pool?.free ?? []), ...(pool?.used ?? [])].map((r) => r.resource.processID).filter((x): x is number => typeof x === 'number');
}

/** CPU seconds (user + system) a process has used, from /proc (0 when it is gone). */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The floor to compare with: the same service pipeline (context verification, parsers, metrics)
 * on the same pool, answering one primary-key read of `projects` (like the gateway bench's tiny upstream).
 */
async function startFloor(svc: RunningService): Promise<{ url: string; close(): void }> {
  const app = serviceApp(svc.deps, {
    api: (router) =>
      router.get('/projects/:id/floor', async (req, res) => {
        ctx(req);
        res.json(await svc.deps.db('projects').where('id', Number(req.params.id)).first('id', 'name', 'path', 'visibility'));
      }),
  });
  const server = http.createServer({ keepAliveTimeout: 65_000 }, app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function wrkTarget(svc: RunningService, s: Seeded, t: Target, floorUrl: string): Promise<Measured> {
  const url = `${t.floor ? floorUrl : svc.url}${t.path}`;
  const headers = { [CONTEXT_HEADER]: contextFor(t, s.user) };
  const opts = { threads: THREADS, connections: CONNECTIONS, seconds: SECONDS };
  if (WARMUP) await runWrk(url, headers, { ...opts, seconds: WARMUP });
  let best: Measured | null = null;
  for (let i = 0; i < ROUNDS; i++) {
    const pids = poolBackendPids(svc.deps.db);
    const pg0 = pids.map(cpuSecondsOf);
    const cpu = process.cpuUsage();
    const r = await runWrk(url, headers, opts);
    const used = process.cpuUsage(cpu);
    const pgUsed = pids.reduce((sum, pid, k) => sum + cpuSecondsOf(pid) - pg0[k], 0);
    const n = Math.max(1, r.requests);
    const m = { ...r, cpu: (used.user + used.system) / n, pgCpu: (pgUsed * 1e6) / n };
    console.log(`  round ${i + 1}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}, CPU µs/request: service ${m.cpu.toFixed(0)}, Postgres ${m.pgCpu.toFixed(0)} (${pids.length} backends)`);
    if (!best || m.cpu + m.pgCpu < best.cpu + best.pgCpu) best = m;
  }
  if (process.env.BENCH_PROFILE) await profiled(url, headers, opts, t.name);
  return best as Measured;
}

async function profiled(url: string, headers: Record<string, string>, opts: { threads: number; connections: number; seconds: number }, name: string): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  await runWrk(url, headers, opts);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const dir = path.join(tmpdir(), 'identity-bench-profiles');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${Date.now()}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`  profile: ${file}\n${topFunctions(profile as never).map((l) => `    ${l}`).join('\n')}`);
}

async function main(): Promise<void> {
  const schema = `bench_identity_${randomBytes(3).toString('hex')}`;
  const env = { DATABASE_URL, AMQP_URL: 'memory://', GATEWAY_PUBLIC_KEY: keys.publicKey, INTERNAL_API_TOKEN: randomBytes(24).toString('hex'), LOG_LEVEL: 'warn', PUBLIC_URL: 'http://127.0.0.1:8080', STORAGE_DIR: tmpdir() };
  const svc = await bootService(identityService, { env, schema, port: 0, queuePrefix: `${schema}.`, provision: { adminUrl: DATABASE_URL, password: randomBytes(16).toString('hex') } });
  try {
    const t0 = Date.now();
    const s = await seed(svc.deps.db, SCALE);
    console.log(`seeded ${schema} in ${Date.now() - t0} ms: ${JSON.stringify(s.counts)}`);
    if (PHASES.includes('queries')) await queries(svc, s);
    if (PHASES.includes('wrk')) {
      const rows: string[] = [];
      const floor = await startFloor(svc);
      for (const t of targets(s)) {
        console.log(`\n## wrk -t${THREADS} -c${CONNECTIONS} -d${SECONDS}s GET ${t.path}`);
        const r = await wrkTarget(svc, s, t, floor.url);
        rows.push(`| ${t.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p90.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpu.toFixed(0)} | ${r.pgCpu.toFixed(0)} | ${r.errors} |`);
      }
      floor.close();
      console.log(`\n(per target, the round with the least CPU per request)\n| target | req/s | p50 ms | p90 ms | p99 ms | service CPU µs/req | Postgres CPU µs/req | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}`);
    }
  } finally {
    await svc.stop();
    await dropSchema({ url: DATABASE_URL, schema });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
