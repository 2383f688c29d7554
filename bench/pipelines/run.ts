/**
 * The pipelines benchmark: seeds 100,000 pipelines (three jobs each) on one project, then loads
 * each endpoint alone at a fixed rate through the gateway, authenticated, and prints achieved RPS,
 * p50/p90/p99 and success rate (the wrk driver is bench/support/fixed-rate.ts with bench/issues/load.lua).
 * Usage: npx tsx bench/pipelines/run.ts
 * Env: DATABASE_URL (default the local Postgres), AMQP_URL (default the local RabbitMQ), BENCH_RATE (200),
 * BENCH_SECONDS (60), BENCH_PIPELINES (100000), BENCH_CONNECTIONS (64), BENCH_THREADS (2),
 * BENCH_ONLY (scenario names, comma-separated), BENCH_WARMUP (10 s), BENCH_SETTLE (10 s),
 * BENCH_SMOKE (1,000 pipelines, 50 req/s, one second per endpoint, no warm-up).
 */
import { startFleet } from '@anvil/testing';
import { printRow, printTableHeader, loadPaths, settle } from '../support/fixed-rate';
import { scenarios } from './scenarios';
import { seed } from './seed';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const smoke = !!process.env.BENCH_SMOKE;
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 200));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 60));
  const count = Number(process.env.BENCH_PIPELINES ?? (smoke ? 1000 : 100_000));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 10));
  const only = process.env.BENCH_ONLY?.split(',');
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const fleet = await startFleet({ services: ['identity', 'pipelines'], databaseUrl, amqpUrl });
  try {
    const data = await seed(fleet, databaseUrl, count);
    await settle(databaseUrl, Number(process.env.BENCH_SETTLE ?? (smoke ? 0 : 10)));
    console.log(`\nrate ${rate}/s, ${seconds} s per endpoint, wrk ${threads} threads × ${connections} connections, ${new Date().toISOString()}`);
    printTableHeader('endpoint', 'achieved RPS');
    for (const s of scenarios(data)) {
      if (only && !only.includes(s.name)) continue;
      printRow(s.title, await loadPaths(fleet.url, data.token, s.paths, { rate, seconds, warmup, threads, connections }));
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
