/**
 * Gateway overhead on a Postgres-backed read, measured with wrk directly against the service
 * (context signed here, as the gateway would) and through the gateway (a member's personal access
 * token; the gateway authenticates it and resolves the private project, both cached). Targets:
 * - `tiny`: `GET /api/v4/projects/:id/pipelines/:pipeline_id` on a minimal service app doing one
 *   primary-key query (bench/gateway/upstream.ts, in this process), routed as pipelines;
 * - `identity`: `GET /api/v4/projects/:id` on the identity service (a heavier read).
 * Prints RPS and p50/p90/p99 for both, the throughput kept, the p50 added, and CPU time per request
 * (from /proc).
 *
 *   npx tsx bench/gateway/run.ts
 *   BENCH_TARGETS=tiny BENCH_SECONDS=20 BENCH_CONNECTIONS=64 npx tsx bench/gateway/run.ts
 *   BENCH_SMOKE=1 npx tsx bench/gateway/run.ts      # one 1-second round per target, no warm-up
 *
 * Needs Postgres (DATABASE_URL, default the local trust one) and `wrk` on PATH.
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { ContextSigner, generateContextKeys, IdentityClient, CONTEXT_HEADER } from '@anvil/auth';
import { startFleet, TEST_INTERNAL_TOKEN } from '@anvil/testing';
import { cpuSecondsOf } from './processes';
import { startUpstream } from './upstream';
import { runWrk, WrkResult } from './wrk';

const SMOKE = !!process.env.BENCH_SMOKE;
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? (SMOKE ? 8 : 32));
const THREADS = Number(process.env.BENCH_THREADS ?? (SMOKE ? 1 : 2));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
const WARMUP = SMOKE ? 0 : 3;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function call<T>(base: string, token: string, method: string, p: string, body?: object): Promise<T> {
  const res = await fetch(`${base}/api/v4${p}`, { method, headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A user who is Developer of a private project in a private group, and that user's token. */
async function fixture(gw: string, admin: string) {
  const tag = randomBytes(3).toString('hex');
  const user = await call<{ id: number; username: string; name: string }>(gw, admin, 'POST', '/users', { username: `bench_${tag}`, name: 'Bench', email: `bench_${tag}@example.com`, password: `pw-${tag}-${tag}-x`, skip_confirmation: true });
  const { token } = await call<{ token: string }>(gw, admin, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'bench', scopes: ['api'] });
  const group = await call<{ id: number }>(gw, admin, 'POST', '/groups', { name: `bench-${tag}`, path: `bench-${tag}`, visibility: 'private' });
  const project = await call<{ id: number }>(gw, admin, 'POST', '/projects', { name: 'bench', path: 'bench', namespace_id: group.id, visibility: 'private' });
  await call(gw, admin, 'POST', `/projects/${project.id}/members`, { user_id: user.id, access_level: 30 });
  return { user, token, project };
}

function row(name: string, r: WrkResult): string {
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `${name.padEnd(16)} ${r.rps.toFixed(0).padStart(8)} ${f(r.p50)} ${f(r.p90)} ${f(r.p99)} ${String(r.errors).padStart(7)}`;
}

interface Target {
  label: string;
  path: string;
  directBase: string;
  /** The process serving the target (for its CPU time). */
  pid: number;
}

/** CPU seconds `pids` use while `run` runs, per request it reports. */
async function cpuPerRequest(pids: number[], run: () => Promise<WrkResult>): Promise<{ r: WrkResult; us: number[] }> {
  const before = pids.map(cpuSecondsOf);
  const r = await run();
  return { r, us: pids.map((pid, i) => ((cpuSecondsOf(pid) - before[i]) / Math.max(1, r.requests)) * 1e6) };
}

/**
 * Warm-up, then ROUNDS alternating direct and through-gateway runs; prints the best of each (the
 * machine is shared), and a CPU-based estimate of the throughput kept: service CPU per request
 * direct ÷ (service + gateway CPU per request through the gateway). wrk and Postgres are left out of
 * both sides, so on an idle 2-core machine the real ratio would be at least this.
 */
async function measure(t: Target, gw: string, pids: { gateway: number; service: number }, token: string, signed: string): Promise<void> {
  const direct = { url: `${t.directBase}${t.path}`, headers: { [CONTEXT_HEADER]: signed } };
  const through = { url: `${gw}${t.path}`, headers: { 'PRIVATE-TOKEN': token } };
  const opts = { threads: THREADS, connections: CONNECTIONS, seconds: SECONDS };
  if (WARMUP) {
    await runWrk(direct.url, direct.headers, { ...opts, seconds: WARMUP });
    await runWrk(through.url, through.headers, { ...opts, seconds: WARMUP });
  }
  const d: { r: WrkResult; us: number[] }[] = [];
  const g: { r: WrkResult; us: number[] }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    d.push(await cpuPerRequest([pids.service], () => runWrk(direct.url, direct.headers, opts)));
    g.push(await cpuPerRequest([pids.service, pids.gateway], () => runWrk(through.url, through.headers, opts)));
  }
  const best = <T extends { r: WrkResult }>(rs: T[]) => rs.reduce((a, b) => (b.r.rps > a.r.rps ? b : a));
  const min = (xs: number[]) => Math.min(...xs);
  const [bd, bg] = [best(d).r, best(g).r];
  const serviceDirect = min(d.map((x) => x.us[0]));
  const serviceThrough = min(g.map((x) => x.us[0]));
  const gatewayCpu = min(g.map((x) => x.us[1]));
  console.log(`\n[${t.label}] GET ${t.path} — wrk -t${THREADS} -c${CONNECTIONS} -d${SECONDS}s, best of ${ROUNDS} rounds`);
  console.log(`${''.padEnd(16)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`);
  console.log(row('direct', bd));
  console.log(row('through gateway', bg));
  console.log(`throughput kept: ${((bg.rps / bd.rps) * 100).toFixed(1)}%   p50 added: ${(bg.p50 - bd.p50).toFixed(2)} ms`);
  console.log(`CPU per request: service ${serviceDirect.toFixed(0)} µs direct, ${serviceThrough.toFixed(0)} µs through; gateway ${gatewayCpu.toFixed(0)} µs → CPU-bound estimate of throughput kept ≥ ${((serviceDirect / (serviceThrough + gatewayCpu)) * 100).toFixed(1)}%`);
  console.log(`all rounds: direct ${d.map((x) => x.r.rps.toFixed(0)).join(', ')} req/s; gateway ${g.map((x) => x.r.rps.toFixed(0)).join(', ')} req/s`);
}

async function main(): Promise<void> {
  const targets = (process.env.BENCH_TARGETS ?? 'tiny,identity').split(',');
  const keys = generateContextKeys();
  const upstream = await startUpstream(DATABASE_URL, `bench_up_${randomBytes(4).toString('hex')}`, keys.publicKey);
  try {
    const fleet = await startFleet({ services: ['identity'], databaseUrl: DATABASE_URL, amqp: false, keys, upstreams: { pipelines: upstream.url } });
    try {
      const identityUrl = fleet.services.identity.url;
      const { user, token, project } = await fixture(fleet.url, fleet.adminToken);
      const scope = await new IdentityClient(identityUrl, TEST_INTERNAL_TOKEN).resolveProject(String(project.id), user.id);
      const all: Record<string, Target> = {
        tiny: { label: 'tiny upstream, one indexed query', path: `/api/v4/projects/${project.id}/pipelines/42`, directBase: upstream.url, pid: process.pid },
        identity: { label: 'identity', path: `/api/v4/projects/${project.id}`, directBase: identityUrl, pid: fleet.services.identity.process.pid! },
      };
      console.log(`${new Date().toISOString()} — ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}`);
      for (const name of targets) {
        const t = all[name];
        if (!t) throw new Error(`unknown target ${name} (tiny, identity)`);
        const signed = new ContextSigner(keys.privateKey).sign({
          rid: 'bench', m: 'GET', p: t.path, aud: name === 'tiny' ? 'pipelines' : name, base: fleet.url, exp: Date.now() + 3_600_000,
          user: { id: user.id, username: user.username, name: user.name, admin: false, state: 'active' }, scopes: ['api'], auth: 'pat', project: scope ?? undefined,
        });
        await measure(t, fleet.url, { gateway: fleet.gateway.process.pid!, service: t.pid }, token, signed);
      }
    } finally {
      await fleet.stop();
    }
  } finally {
    await upstream.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
