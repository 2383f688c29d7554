/**
 * The issues benchmark (GitLab Performance Tool style): seeds 10 projects × 100k issues in one
 * group, then loads each endpoint alone at a fixed rate through the gateway, authenticated,
 * and prints achieved RPS, p50/p90/p99 and success rate.
 * Usage: npx tsx bench/issues/run.ts
 * Env: DATABASE_URL (default the local Postgres), BENCH_RATE (1000), BENCH_SECONDS (60),
 * BENCH_ISSUES (100000 per project), BENCH_NOTES (notes on each of the first project's first 1,000 issues, 1000), BENCH_CONNECTIONS (64), BENCH_THREADS (2), BENCH_ONLY (scenario names, comma-separated),
 * BENCH_WARMUP (10 s of the same load before each measurement), BENCH_SETTLE (15 s idle after seeding and CHECKPOINT),
 * BENCH_HOLD (seed, print the fleet as JSON, and wait for SIGINT: for profiling), AMQP_URL (default the
 * local RabbitMQ: identity's events must reach work-items), BENCH_SMOKE (2 projects × 100 issues, 50 req/s,
 * 10 issues × 50 notes, one second per endpoint, no warm-up).
 */
import { startFleet } from '@anvil/testing';
import { printRow, printTableHeader, loadPaths, settle } from '../support/fixed-rate';
import { scenarios } from './scenarios';
import { seed } from './seed';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const smoke = !!process.env.BENCH_SMOKE;
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 1000));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 60));
  const perProject = Number(process.env.BENCH_ISSUES ?? (smoke ? 100 : 100_000));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 10));
  const only = process.env.BENCH_ONLY?.split(',');
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  if (!amqpUrl.startsWith('amqp')) throw new Error(`AMQP_URL=${amqpUrl}: the issues benchmark needs RabbitMQ (identity's events fill work-items' read models)`);
  const fleet = await startFleet({ services: ['identity', 'work-items'], databaseUrl, amqpUrl });
  try {
    const notes = { issues: smoke ? 10 : 1000, perIssue: Number(process.env.BENCH_NOTES ?? (smoke ? 50 : 1000)) };
    const data = await seed(fleet, databaseUrl, perProject, smoke ? 2 : 10, notes);
    await settle(databaseUrl, Number(process.env.BENCH_SETTLE ?? (smoke ? 0 : 15)));
    if (process.env.BENCH_HOLD) {
      const pids = Object.fromEntries([['gateway', fleet.gateway.process.pid], ...Object.entries(fleet.services).map(([n, p]) => [n, p.process.pid])]);
      console.log(JSON.stringify({ url: fleet.url, token: data.token, groupId: data.groupId, projectIds: data.projectIds, usernames: data.usernames, pids, schemas: fleet.schemas }));
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      return;
    }
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
