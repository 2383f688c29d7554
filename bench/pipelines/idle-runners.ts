/**
 * Idle runners: N reference-runner clients long-poll `POST /jobs/request` through the gateway
 * while no job is pending; the fleet's CPU (gateway, pipelines, identity: user + system time from
 * /proc) is measured over the window, then one job is queued and the time until a runner holds it
 * is measured (the LISTEN/NOTIFY wake-up).
 * Usage: npx tsx bench/pipelines/idle-runners.ts
 * Env: DATABASE_URL (default the local Postgres), AMQP_URL (default the local RabbitMQ),
 * BENCH_RUNNERS (100), BENCH_SECONDS (60), BENCH_LONG_POLL_MS (50000, the service's default),
 * BENCH_SMOKE (10 runners, 3 s, 1 s long poll).
 */
import { readFileSync } from 'node:fs';
import { startFleet } from '@anvil/testing';
import { RunnerClient } from '../../services/pipelines/runner/src';

const CLOCK_TICKS = 100;

/** User + system CPU seconds a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(`${base}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (r.status >= 400) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function main(): Promise<void> {
  const smoke = !!process.env.BENCH_SMOKE;
  const runners = Number(process.env.BENCH_RUNNERS ?? (smoke ? 10 : 100));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 3 : 60));
  const longPoll = Number(process.env.BENCH_LONG_POLL_MS ?? (smoke ? 1000 : 50_000));
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const fleet = await startFleet({ services: ['identity', 'pipelines'], databaseUrl, amqpUrl, env: { RUNNER_LONG_POLL_MS: String(longPoll), LOG_LEVEL: 'warn' } });
  const stop = new AbortController();
  try {
    const base = fleet.url;
    const project = await call(base, fleet.adminToken, 'POST', '/projects', { name: 'bench-ci' });
    await call(base, fleet.adminToken, 'POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'noop:\n  script: ["echo ok"]\n', commit_message: 'CI' });
    const clients: RunnerClient[] = [];
    for (let i = 0; i < runners; i += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, runners - i) }, (_, k) => call(base, fleet.adminToken, 'POST', '/user/runners', { runner_type: 'instance_type', description: `idle-${i + k}` })));
      clients.push(...batch.map((r, k) => new RunnerClient(base, r.token, `idle-${i + k}`)));
    }
    let polls = 0;
    let picked: { at: number; runner: number } | null = null;
    const loops = clients.map(async (c, i) => {
      let last: string | undefined;
      while (!stop.signal.aborted) {
        const r = await c.requestJob(last, stop.signal).catch(() => null);
        if (!r) continue;
        polls++;
        last = r.lastUpdate;
        if (r.job) {
          picked = { at: performance.now(), runner: i };
          await c.updateJob(r.job, 'success', { exit_code: 0 });
        }
      }
    });
    // every runner has had its first answer and is now held
    for (let i = 0; i < 3000 && polls < runners; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 500));
    const pids = [fleet.gateway, ...Object.values(fleet.services)].map((p) => ({ name: p.name, pid: p.process.pid! }));
    const before = pids.map((p) => cpuSeconds(p.pid));
    const pollsBefore = polls;
    const started = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const wall = (performance.now() - started) / 1000;
    const used = pids.map((p, i) => ({ name: p.name, cpu: ((cpuSeconds(p.pid) - before[i]) / wall) * 100 }));
    const total = used.reduce((s, u) => s + u.cpu, 0);
    const answered = polls - pollsBefore;
    const requested = performance.now();
    await call(base, fleet.adminToken, 'POST', `/projects/${project.id}/pipeline`, { ref: 'main' });
    const created = performance.now();
    for (let i = 0; i < 200 && !picked; i++) await new Promise((r) => setTimeout(r, 10));
    const pickedAt = (picked as { at: number } | null)?.at;
    console.log(`${runners} idle runners long-polling (${longPoll} ms) for ${wall.toFixed(1)} s: ${answered} requests answered`);
    console.log('');
    console.log('| process | CPU % of one core |');
    console.log('|---|---|');
    for (const u of used) console.log(`| ${u.name} | ${u.cpu.toFixed(2)} |`);
    console.log(`| fleet | ${total.toFixed(2)} |`);
    console.log('');
    console.log(`pipeline created in ${(created - requested).toFixed(0)} ms; its job held by a runner ${pickedAt ? `${(pickedAt - created).toFixed(0)} ms` : 'never'} after`);
    stop.abort();
    await Promise.all(loops);
  } finally {
    stop.abort();
    await fleet.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
