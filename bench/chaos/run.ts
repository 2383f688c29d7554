// bench/chaos: the fleet over RabbitMQ under a steady mixed load while processes are killed and the
// broker and the database restart; then what was acknowledged is checked against what is stored.
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createDb, type Knex } from '@anvil/db';
import { type Fleet, type FleetProcess, privatePostgres, privateRabbit, type PrivateServer, SERVICE_NAMES, startFleet } from '@anvil/testing';
import { currentRss, mb, runMain } from '../registry/proc';
import { startReceiver } from './receiver';
import { Tally } from './tally';

const SMOKE = process.env.BENCH_SMOKE === '1';
const num = (name: string, def: number) => Number(process.env[name] ?? def);
const SECONDS = num('BENCH_SECONDS', SMOKE ? 30 : 300);
const RATE = num('BENCH_RATE', SMOKE ? 10 : 40);
const KILL_EVERY = num('BENCH_KILL_EVERY', SMOKE ? 12 : 30);
const EXPORT_EVERY = num('BENCH_EXPORT_EVERY', SMOKE ? 10 : 30);
const DRAIN_SECONDS = num('BENCH_DRAIN', 180);
const MAX_IN_FLIGHT = 256;
const REQUEST_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const at = (t0: number) => ((Date.now() - t0) / 1000).toFixed(1).padStart(6);

interface Setup {
  api: string;
  headers: Record<string, string>;
  projectId: number;
  conan: string;
  conanHeaders: Record<string, string>;
}

async function call(url: string, init: RequestInit): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

async function must(r: Promise<Response>, what: string): Promise<any> {
  const res = await r;
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
  return text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text;
}

/** A user, a group with a hook to the receiver, a project in it, a Conan login. */
async function setUp(fleet: Fleet, hookUrl: string): Promise<Setup> {
  const api = `${fleet.url}/api/v4`;
  const admin = { 'PRIVATE-TOKEN': fleet.adminToken, 'Content-Type': 'application/json' };
  const post = (p: string, body: unknown, h = admin) => must(call(`${api}${p}`, { method: 'POST', headers: h, body: JSON.stringify(body) }), `POST ${p}`);
  await must(call(`${api}/application/settings`, { method: 'PUT', headers: admin, body: JSON.stringify({ allow_local_requests_from_web_hooks_and_services: true }) }), 'settings');
  const user = await post('/users', { username: 'chaos', name: 'Chaos', email: 'chaos@example.com', password: 'Chaos-pass-phrase-1', skip_confirmation: true });
  const pat = (await post(`/users/${user.id}/personal_access_tokens`, { name: 'chaos', scopes: ['api'] })).token as string;
  const group = await post('/groups', { name: 'Chaos group', path: 'chaos-group', visibility: 'private' });
  await post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 50 });
  await post(`/groups/${group.id}/hooks`, { url: hookUrl, token: 'chaos-hook', issues_events: true, push_events: false });
  const headers = { 'PRIVATE-TOKEN': pat, 'Content-Type': 'application/json' };
  const project = await post('/projects', { name: 'Load', path: 'load', namespace_id: group.id, visibility: 'private' }, headers);
  const conan = `${api}/projects/${project.id}/packages/conan`;
  const basic = `Basic ${Buffer.from(`chaos:${pat}`).toString('base64')}`;
  // the project's read models fill from identity's events: wait until work-items knows it
  for (let i = 0; ; i++) {
    const r = await call(`${api}/projects/${project.id}/issues`, { headers });
    if (r.ok) break;
    if (i > 100) throw new Error(`work-items never learned of the project: ${r.status}`);
    await sleep(200);
  }
  const jwt = await must(call(`${conan}/v2/users/authenticate`, { headers: { Authorization: basic } }), 'conan authenticate');
  return { api, headers, projectId: project.id, conan, conanHeaders: { Authorization: `Bearer ${jwt}` } };
}

/** The mixed load: issue writes and reads, lists, Conan uploads; exports on their own schedule. */
class Load {
  readonly tally = new Tally();
  readonly createdIids = new Set<number>();
  readonly uploadedRevisions = new Set<string>();
  readonly exports = { requested: 0, finished: 0, failed: 0, refused: 0 };
  private inFlight = 0;
  private stopped = false;
  private exportRunning = false;
  private turn = 0;

  constructor(private readonly s: Setup) {}

  async run(seconds: number): Promise<void> {
    const until = Date.now() + seconds * 1000;
    const gap = 1000 / RATE;
    let next = Date.now();
    let lastExport = Date.now();
    const pending = new Set<Promise<void>>();
    while (Date.now() < until && !this.stopped) {
      if (this.inFlight < MAX_IN_FLIGHT) {
        const p = this.one().finally(() => pending.delete(p));
        pending.add(p);
      } else {
        this.tally.count('client', 'shed');
      }
      if (!this.exportRunning && Date.now() - lastExport >= EXPORT_EVERY * 1000) {
        lastExport = Date.now();
        const p = this.exportOnce().finally(() => pending.delete(p));
        pending.add(p);
      }
      next += gap;
      await sleep(Math.max(0, next - Date.now()));
    }
    await Promise.all(pending);
  }

  private async one(): Promise<void> {
    this.inFlight++;
    try {
      const r = Math.random();
      if (r < 0.35) await this.createIssue();
      else if (r < 0.6) await this.readIssue();
      else if (r < 0.8) await this.op('list issues', call(`${this.s.api}/projects/${this.s.projectId}/issues?per_page=20`, { headers: this.s.headers }));
      else if (r < 0.9) await this.readElsewhere();
      else await this.upload();
    } finally {
      this.inFlight--;
    }
  }

  /** Sends one request and files its outcome; resolves with the response when it answered. */
  private async op(kind: string, req: Promise<Response>): Promise<Response | undefined> {
    try {
      const res = await req;
      await res.arrayBuffer().catch(() => undefined);
      this.tally.count(kind, res.status >= 500 ? '5xx' : res.status >= 400 ? `${res.status}` : 'ok');
      return res;
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      this.tally.count(kind, err.name === 'TimeoutError' ? 'timeout' : `network ${err.cause?.code ?? err.name}`);
      return undefined;
    }
  }

  private async createIssue(): Promise<void> {
    const body = JSON.stringify({ title: `chaos ${randomBytes(4).toString('hex')}` });
    const req = call(`${this.s.api}/projects/${this.s.projectId}/issues`, { method: 'POST', headers: this.s.headers, body });
    try {
      const res = await req;
      const text = await res.text();
      this.tally.count('create issue', res.status >= 500 ? '5xx' : res.status >= 400 ? `${res.status}` : 'ok');
      if (res.status === 201) this.createdIids.add(JSON.parse(text).iid);
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      this.tally.count('create issue', err.name === 'TimeoutError' ? 'timeout' : `network ${err.cause?.code ?? err.name}`);
    }
  }

  private async readIssue(): Promise<void> {
    const iids = [...this.createdIids];
    if (!iids.length) return this.createIssue();
    const iid = iids[Math.floor(Math.random() * iids.length)];
    const res = await this.op('get issue', call(`${this.s.api}/projects/${this.s.projectId}/issues/${iid}`, { headers: this.s.headers }));
    // an acknowledged create must stay readable: a 404 here is a lost write
    if (res?.status === 404) this.tally.count('get issue', 'lost (404 after 201)');
  }

  /** A read served by each of the other services in turn, so a kill of any of them shows in the errors. */
  private async readElsewhere(): Promise<void> {
    const paths: [string, string][] = [
      ['get project (identity)', ''],
      ['list pipelines (pipelines)', '/pipelines'],
      ['list alerts (alerting)', '/alert_management/alerts'],
      ['export status (project-transfer)', '/export'],
    ];
    const [kind, suffix] = paths[this.turn++ % paths.length];
    await this.op(kind, call(`${this.s.api}/projects/${this.s.projectId}${suffix}`, { headers: this.s.headers }));
  }

  private async upload(): Promise<void> {
    const rev = randomBytes(16).toString('hex');
    const body = randomBytes(4096);
    const url = `${this.s.conan}/v2/conans/chaos/1.0/_/_/revisions/${rev}/files/conanfile.py`;
    const res = await this.op('conan upload', call(url, { method: 'PUT', headers: { ...this.s.conanHeaders, 'Content-Type': 'application/octet-stream' }, body }));
    if (res && res.status < 300) this.uploadedRevisions.add(rev);
  }

  private async exportOnce(): Promise<void> {
    this.exportRunning = true;
    try {
      const url = `${this.s.api}/projects/${this.s.projectId}/export`;
      const res = await this.op('export', call(url, { method: 'POST', headers: this.s.headers }));
      if (res?.status !== 202) {
        this.exports.refused++;
        return;
      }
      this.exports.requested++;
      const until = Date.now() + 120_000;
      while (Date.now() < until) {
        await sleep(1000);
        const st = (await call(url, { headers: this.s.headers }).then((r) => (r.ok ? r.json() : null)).catch(() => null)) as { export_status?: string } | null;
        if (st?.export_status === 'finished') return void this.exports.finished++;
        if (st?.export_status === 'failed') return void this.exports.failed++;
      }
    } finally {
      this.exportRunning = false;
    }
  }

  stop(): void {
    this.stopped = true;
  }
}

/** Every process of the fleet, by a printable name, with its RSS when first seen. */
function processes(fleet: Fleet): [string, FleetProcess][] {
  return [['gateway', fleet.gateway], ...Object.entries(fleet.services)];
}

/** Files under the storage directory (keys relative to it), the driver's temporary directory left out. */
function storedFiles(dir: string, prefix = ''): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const key = prefix ? `${prefix}/${e.name}` : e.name;
    if (!prefix && e.name.startsWith('.')) continue;
    if (e.isDirectory()) for (const [k, v] of storedFiles(dir, key)) out.set(k, v);
    else out.set(key, statSync(path.join(dir, key)).size);
  }
  return out;
}

async function count(db: Knex, sql: string, bindings: unknown[] = []): Promise<number> {
  const r = await db.raw(sql, bindings as Knex.RawBinding[]);
  return Number(r.rows[0]?.n ?? 0);
}

async function main(): Promise<void> {
  const servers: PrivateServer[] = [];
  let fleet: Fleet | undefined;
  const receiver = await startReceiver();
  try {
    const pg = await privatePostgres();
    servers.push(pg);
    const mq = await privateRabbit();
    servers.push(mq);
    fleet = await startFleet({ databaseUrl: pg.url, amqpUrl: mq.url, env: { LOG_LEVEL: 'error' } });
    const setup = await setUp(fleet, receiver.url);
    const rssStart = new Map(processes(fleet).map(([n, p]) => [n, currentRss(p.process.pid!)]));
    console.log(`fleet up: ${SERVICE_NAMES.length} services and the gateway on a private Postgres and RabbitMQ; ${SECONDS} s of load at ${RATE} req/s, a kill -9 every ${KILL_EVERY} s`);

    const load = new Load(setup);
    const t0 = Date.now();
    const events: string[] = [];
    const chaos = (async () => {
      const rabbitAt = Math.round(SECONDS * 0.4);
      const postgresAt = Math.round(SECONDS * 0.7);
      const steps = [...Array(Math.floor((SECONDS - 1) / KILL_EVERY))].map((_, i) => ({ t: (i + 1) * KILL_EVERY, what: 'kill' }));
      steps.push({ t: rabbitAt, what: 'rabbitmq' }, { t: postgresAt, what: 'postgres' });
      steps.sort((a, b) => a.t - b.t);
      for (const step of steps) {
        await sleep(Math.max(0, t0 + step.t * 1000 - Date.now()));
        const began = Date.now();
        const when = at(t0);
        if (step.what === 'kill') {
          const name = SERVICE_NAMES[Math.floor(Math.random() * SERVICE_NAMES.length)];
          await fleet!.crashAndRestart(name);
          events.push(`${when} s  kill -9 ${name}, back in ${((Date.now() - began) / 1000).toFixed(1)} s`);
        } else if (step.what === 'rabbitmq') {
          await mq.restart();
          events.push(`${when} s  RabbitMQ restarted in ${((Date.now() - began) / 1000).toFixed(1)} s`);
        } else {
          await pg.restart();
          events.push(`${when} s  Postgres restarted in ${((Date.now() - began) / 1000).toFixed(1)} s`);
        }
      }
    })();
    await Promise.all([load.run(SECONDS), chaos]);
    for (const e of events) console.log(e);

    // drain: every outbox published, every acknowledged issue delivered to the hook
    const db = createDb({ url: pg.url, schema: 'public', role: false, pool: { min: 0, max: 2 } });
    try {
      const s = fleet.schemas;
      const unpublished = async () => {
        let n = 0;
        for (const schema of Object.values(s)) n += await count(db, `SELECT count(*) AS n FROM "${schema}".outbox WHERE published_at IS NULL`);
        return n;
      };
      const wi = s['work-items'];
      const publishedIssues = () => count(db, `SELECT count(*) AS n FROM "${wi}".outbox WHERE type = 'work-items.issue.created' AND published_at IS NOT NULL`);
      const drainUntil = Date.now() + DRAIN_SECONDS * 1000;
      let drained = false;
      while (Date.now() < drainUntil) {
        if ((await unpublished()) === 0 && receiver.openedIids(setup.projectId).size >= (await publishedIssues())) {
          drained = true;
          break;
        }
        await sleep(1000);
      }
      const storedIids = new Set<number>((await db.raw(`SELECT iid FROM "${wi}".issues WHERE project_id = ?`, [setup.projectId])).rows.map((r: { iid: number }) => Number(r.iid)));
      const lostIssues = [...load.createdIids].filter((iid) => !storedIids.has(iid));
      const issueEvents = await count(db, `SELECT count(*) AS n FROM "${wi}".outbox WHERE type = 'work-items.issue.created'`);
      const delivered = receiver.openedIids(setup.projectId);
      const reg = s.registry;
      const rows: { storage_key: string; size: string }[] = (await db.raw(`SELECT storage_key, size FROM "${reg}".conan_files`)).rows;
      const recordedRevisions = new Set<string>((await db.raw(`SELECT revision FROM "${reg}".conan_recipe_revisions`)).rows.map((r: { revision: string }) => r.revision));
      const lostUploads = [...load.uploadedRevisions].filter((r) => !recordedRevisions.has(r));
      const files = storedFiles(fleet.storageDir);
      const missing = rows.filter((r) => files.get(r.storage_key) !== Number(r.size));
      const prefixes = new Set(rows.map((r) => r.storage_key.split('/')[0]));
      const recordedKeys = new Set(rows.map((r) => r.storage_key));
      const orphans = [...files.keys()].filter((k) => prefixes.has(k.split('/')[0]) && !recordedKeys.has(k));

      console.log('');
      console.log(`requests: ${load.tally.total()} sent in ${SECONDS} s (${(load.tally.total() / SECONDS).toFixed(1)}/s), ${load.tally.ok()} answered 2xx/3xx`);
      console.log('| request | ok | errors by class |');
      console.log('|---|---|---|');
      for (const [kind, classes] of load.tally.rows()) console.log(`| ${kind} | ${classes.ok ?? 0} | ${Object.entries(classes).filter(([c]) => c !== 'ok').map(([c, n]) => `${c}: ${n}`).join(', ') || '-'} |`);
      console.log('');
      console.log(`drained: ${drained ? 'yes' : `no, after ${DRAIN_SECONDS} s`}; unpublished outbox rows: ${await unpublished()}`);
      console.log(`issues: acknowledged ${load.createdIids.size}, stored ${storedIids.size}, acknowledged but missing ${lostIssues.length}`);
      console.log(`events: work-items.issue.created published ${issueEvents}, applied (delivered to the group hook) ${delivered.size}: ${issueEvents === delivered.size ? 'equal' : 'NOT equal'}`);
      console.log(`conan uploads: acknowledged ${load.uploadedRevisions.size}, recorded ${recordedRevisions.size}, acknowledged but not recorded ${lostUploads.length}`);
      console.log(`files: recorded ${rows.length}, stored ${rows.length - missing.length} of them: ${missing.length === 0 ? 'equal' : `${missing.length} missing or short`}; stored but unrecorded ${orphans.length}`);
      console.log(`exports: requested ${load.exports.requested}, finished ${load.exports.finished}, failed ${load.exports.failed}, refused ${load.exports.refused}`);
      console.log('');
      console.log('| process | RSS at start MB | RSS at end MB |');
      console.log('|---|---|---|');
      for (const [n, p] of processes(fleet)) console.log(`| ${n} | ${mb(rssStart.get(n) ?? 0)} | ${mb(currentRss(p.process.pid!))} |`);
      const ok = drained && lostIssues.length === 0 && issueEvents === delivered.size && lostUploads.length === 0 && missing.length === 0;
      console.log('');
      console.log(`verdict: ${ok ? 'nothing lost' : 'LOSS OR DIVERGENCE (see above)'}`);
      if (!ok) throw new Error('the chaos run lost or diverged (figures above)');
    } finally {
      await db.destroy();
    }
  } finally {
    await fleet?.stop().catch(() => undefined);
    for (const s of servers.reverse()) await s.stop();
    await receiver.close();
  }
}

runMain(main);
