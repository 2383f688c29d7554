/**
 * The alerting benchmark: alerts posted to an HTTP integration's notify URL through the gateway at a
 * fixed rate with wrk, once with a new fingerprint per request (every request opens an alert) and
 * once repeating ten fingerprints (every request counts an event), printing the achieved rate of
 * accepted alerts, p50/p90/p99 and success; then, per scenario, what was stored against what was
 * accepted (a run that lost an accepted alert fails) and the CPU ms per request of each process
 * (gateway, identity, alerting, the Postgres backends serving them).
 * Usage: npx tsx bench/alerting/run.ts
 * Env: DATABASE_URL (default the local Postgres), AMQP_URL (default the local RabbitMQ), BENCH_RATE
 * (2000), BENCH_SECONDS (30), BENCH_WARMUP (5), BENCH_THREADS (2), BENCH_CONNECTIONS (64),
 * BENCH_SMOKE (50 req/s, one second per scenario, no warm-up).
 */
import path from 'node:path';
import { createDb } from '@anvil/db';
import { Fleet, startFleet } from '@anvil/testing';
import { backendsOf, CpuMeter, formatCpuPerRequest } from '../support/cpu';
import { printRow, printTableHeader, runWrk } from '../support/fixed-rate';

/** The notify schedule: new or repeated fingerprints, `BENCH_RATE` posts a second in all. */
const NOTIFY_SCRIPT = path.join(__dirname, 'load.lua');

async function api(fleet: Fleet, method: string, p: string, body: unknown): Promise<any> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, { method, headers: { 'PRIVATE-TOKEN': fleet.adminToken, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function main(): Promise<void> {
  const smoke = !!process.env.BENCH_SMOKE;
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 2000));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 30));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 5));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const fleet = await startFleet({ services: ['identity', 'alerting'], databaseUrl, amqpUrl });
  try {
    const project = await api(fleet, 'POST', '/projects', { name: 'Bench', path: 'bench', visibility: 'private' });
    const integration = await api(fleet, 'POST', `/projects/${project.id}/alert_management/http_integrations`, { name: 'Bench' });
    console.log(`\nrate ${rate}/s, ${seconds} s per scenario, wrk ${threads} threads × ${connections} connections, ${new Date().toISOString()}`);
    printTableHeader('scenario', 'achieved alerts/s');
    const load = { rate, seconds, warmup, threads, connections };
    const alerting = createDb({ url: databaseUrl, schema: fleet.schemas.alerting, role: false, pool: { min: 0, max: 1 } });
    const stored = async () => (await alerting.raw('SELECT count(*)::int AS alerts, coalesce(sum(event_count), 0)::int AS events FROM alerts WHERE project_id = ?', [project.id])).rows[0] as { alerts: number; events: number };
    const processes = { gateway: fleet.gateway, identity: fleet.services.identity, alerting: fleet.services.alerting };
    const meter = new CpuMeter([
      ...Object.entries(processes).map(([name, p]) => ({ name, pids: () => [p.process.pid!] })),
      { name: 'postgres', pids: async () => (await Promise.all(Object.values(processes).map((p) => backendsOf(databaseUrl, p.process.pid!)))).flat() },
    ]);
    const notes: string[] = [];
    try {
      for (const mode of ['new', 'repeat'] as const) {
        const title = mode === 'new' ? 'new fingerprint per request' : 'repeats of 10 fingerprints';
        const env = { BENCH_MODE: mode, BENCH_KEY: integration.token, BENCH_RUN: `${mode}${Date.now().toString(36)}` };
        if (warmup > 0) await runWrk(integration.url, NOTIFY_SCRIPT, warmup, load, { ...env, BENCH_RUN: `w${env.BENCH_RUN}` });
        const before = await stored();
        await meter.start();
        const r = await runWrk(integration.url, NOTIFY_SCRIPT, seconds, load, env);
        const cpu = await meter.stop();
        const after = await stored();
        // the achieved rate counts accepted alerts only
        printRow(title, { ...r, rps: r.ok / r.seconds });
        const kept = mode === 'new' ? after.alerts - before.alerts : after.events - before.events;
        notes.push(`${title}: ${r.ok} accepted, ${kept} ${mode === 'new' ? 'alerts' : 'events'} stored; ${formatCpuPerRequest(cpu, r.requests)}`);
        if (kept < r.ok) throw new Error(`${title}: ${r.ok} alerts accepted but only ${kept} stored`);
      }
    } finally {
      await alerting.destroy();
      if (notes.length) console.log(`\n${notes.join('\n')}`);
    }
  } finally {
    await fleet.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
