import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateContextKeys, generateToken } from '@anvil/auth';
import { dropSchema, provisionService, SERVICE_EXTENSIONS } from '@anvil/db';
import { processArgs, type ServiceDefinition, withProcessEnv } from '@anvil/runtime';
import { startService, TEST_INTERNAL_TOKEN, testAmqpUrl, testDatabaseUrl, testKeys, testPassword, type TestService, uniqueName } from './service';

export const SERVICE_NAMES = ['identity', 'registry', 'project-transfer', 'work-items', 'pipelines', 'alerting'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
const URL_VARS: Record<ServiceName, string> = {
  identity: 'IDENTITY_URL', registry: 'REGISTRY_URL', 'project-transfer': 'PROJECT_TRANSFER_URL',
  'work-items': 'WORK_ITEMS_URL', pipelines: 'PIPELINES_URL', alerting: 'ALERTING_URL',
};
const ROOT = path.resolve(__dirname, '../../..');

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, proc: ChildProcess, output: () => string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`process exited (${proc.exitCode}) before ready: ${url}\n${output()}`);
    try {
      const r = await fetch(`${url}/-/readiness`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`not ready after ${ms} ms: ${url}\n${output()}`);
}

export interface FleetProcess {
  name: string;
  url: string;
  process: ChildProcess;
  /** What the process printed so far (for diagnosing a failure). */
  output(): string;
}

export interface Fleet {
  /** The gateway's base URL (no trailing slash); the API is at `${url}/api/v4`. */
  url: string;
  adminToken: string;
  gateway: FleetProcess;
  services: Record<string, FleetProcess>;
  /** Every process of each started service: `services[name]` first, then its further replicas. */
  replicas: Record<string, FleetProcess[]>;
  /** Each started service's schema, by service name; its login has the same name. */
  schemas: Record<string, string>;
  /** The storage directory every process shares. */
  storageDir: string;
  /** The prefix of every queue this fleet's services consume (`QUEUE_PREFIX`). */
  queuePrefix: string;
  /**
   * Kills the service's first process with SIGKILL (no shutdown, no acks: what a crash or an OOM kill
   * does), waits for it to exit, then starts it again with the same settings and port and waits until
   * it is ready. `services[name]` is the new process afterwards.
   */
  crashAndRestart(name: ServiceName): Promise<FleetProcess>;
  /** Each started service's `DATABASE_URL`: its own login, owning only its schema. */
  databaseUrls: Record<string, string>;
  stop(): Promise<void>;
}

export interface FleetOptions {
  /** Which services to start (default: all six). */
  services?: ServiceName[];
  /** Use RabbitMQ (default true when reachable). */
  amqp?: boolean;
  env?: Record<string, string>;
  /** Postgres to use, an administrative URL: each service gets a fresh login (default: the test run's, `TEST_DATABASE_URL`). */
  databaseUrl?: string;
  /** The bus to use (default: as `amqp` says). */
  amqpUrl?: string;
  /** The gateway's context signing keys (default: a fresh pair), for a caller that signs contexts too. */
  keys?: { publicKey: string; privateKey: string };
  /** Base URLs of services running outside the fleet (a benchmark's stand-in), for the gateway to route to. */
  upstreams?: Partial<Record<ServiceName, string>>;
  /**
   * How many processes of a service to run (default 1): the further ones share its schema, queues and
   * outbox, on ports of their own, and start once the first has migrated. The gateway routes to the
   * first (or to `upstreams`).
   */
  replicas?: Partial<Record<ServiceName, number>>;
}

function spawnTs(name: string, entry: string, env: Record<string, string>): FleetProcess & { url: string } {
  // one process per service, from source (tsx's hooks preloaded, not the tsx command, whose
  // signal relay kills a child that is slow to acknowledge SIGTERM), with the process settings
  // production runs with, so benchmarks measure the same
  const role = name === 'gateway' ? 'gateway' : 'service';
  // FLEET_NODE_ARGS: extra node arguments for every process (profiling: `--cpu-prof --cpu-prof-dir=…`)
  const extra = (process.env.FLEET_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...processArgs(role), ...extra, entry], { cwd: ROOT, env: withProcessEnv(role, { ...process.env, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  return { name, url: `http://127.0.0.1:${env.PORT}`, process: proc, output: () => out };
}

/**
 * Starts services as separate processes (tsx) on fresh unique schemas, over real RabbitMQ (an
 * exchange and queue prefix unique to this fleet), and the real gateway in front. `stop()` kills
 * them and drops the schemas. This is how end-to-end tests run the system.
 */
export async function startFleet(opts: FleetOptions = {}): Promise<Fleet> {
  const names = opts.services ?? [...SERVICE_NAMES];
  const run = uniqueName('fleet');
  const keys = opts.keys ?? generateContextKeys();
  const adminToken = generateToken();
  const amqp = opts.amqpUrl ?? (opts.amqp === false ? 'memory://' : testAmqpUrl());
  const databaseUrl = opts.databaseUrl ?? testDatabaseUrl();
  const ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await freePort()] as const)));
  const gatewayPort = await freePort();
  const storageDir = mkdtempSync(path.join(tmpdir(), 'anvil-fleet-'));
  const base: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    AMQP_URL: amqp,
    EVENTS_EXCHANGE: `${run}.events`,
    QUEUE_PREFIX: `${run}.`,
    GATEWAY_PUBLIC_KEY: keys.publicKey,
    INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN,
    ADMIN_TOKEN: adminToken,
    CONAN_JWT_SECRET: generateToken('conan-'),
    STORAGE_DIR: storageDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
    HOST: '127.0.0.1',
    // stopping a test fleet cuts requests left in flight (long polls) at once
    SHUTDOWN_GRACE_MS: '0',
    ...opts.env,
  };
  for (const n of SERVICE_NAMES) base[URL_VARS[n]] = opts.upstreams?.[n] ?? `http://127.0.0.1:${ports[n] ?? 9}`;
  const schemas = names.map((n) => `${run}_${n.replace(/-/g, '_')}`.slice(0, 60));
  const services: Record<string, FleetProcess> = {};
  const replicas: Record<string, FleetProcess[]> = {};
  const all: FleetProcess[] = [];
  const envOf = (n: ServiceName, port: number) => ({ ...base, DATABASE_URL: opts.env?.DATABASE_URL ?? databaseUrls[n], PORT: String(port), DB_SCHEMA: schemas[names.indexOf(n)] });
  const stop = async () => {
    await Promise.all(all.map((p) => new Promise<void>((resolve) => {
      if (p.process.exitCode !== null || p.process.signalCode !== null) return resolve();
      p.process.once('exit', () => resolve());
      p.process.kill('SIGTERM');
      setTimeout(() => p.process.kill('SIGKILL'), 5000).unref();
    })));
    for (const schema of schemas) await dropSchema({ url: databaseUrl, schema }).catch(() => undefined);
    rmSync(storageDir, { recursive: true, force: true });
  };
  const databaseUrls: Record<string, string> = {};
  try {
    // one login per service, as the provisioning step creates them; the services never see the admin URL
    for (const [i, n] of names.entries()) databaseUrls[n] = await provisionService({ adminUrl: databaseUrl, schema: schemas[i], password: testPassword(), extensions: SERVICE_EXTENSIONS[n] });
    const spawnService = async (n: ServiceName, port: number) => {
      const p = spawnTs(n, `services/${n}/src/main.ts`, envOf(n, port));
      all.push(p);
      (replicas[n] ??= []).push(p);
      await waitReady(p.url, p.process, p.output);
      return p;
    };
    const start = async (n: ServiceName) => {
      services[n] = await spawnService(n, ports[n]);
      for (let i = 1; i < (opts.replicas?.[n] ?? 1); i++) await spawnService(n, await freePort());
    };
    // identity last: every consumer's queue is bound before identity publishes its first events
    await Promise.all(names.filter((n) => n !== 'identity').map(start));
    if (names.includes('identity')) await start('identity');
    const gw = spawnTs('gateway', 'gateway/src/main.ts', { ...base, PORT: String(gatewayPort), GATEWAY_PRIVATE_KEY: keys.privateKey });
    all.push(gw);
    await waitReady(gw.url, gw.process, gw.output);
    const crashAndRestart = async (n: ServiceName): Promise<FleetProcess> => {
      const old = services[n];
      if (old.process.exitCode === null && old.process.signalCode === null) {
        const exited = new Promise((r) => old.process.once('exit', r));
        old.process.kill('SIGKILL');
        await exited;
      }
      const p = spawnTs(n, `services/${n}/src/main.ts`, envOf(n, ports[n]));
      all.push(p);
      replicas[n][0] = p;
      services[n] = p;
      await waitReady(p.url, p.process, p.output);
      return p;
    };
    return { url: gw.url, adminToken, gateway: gw, services, replicas, schemas: Object.fromEntries(names.map((n, i) => [n, schemas[i]])), storageDir, queuePrefix: base.QUEUE_PREFIX, databaseUrls, crashAndRestart, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

type Definitions = Partial<Record<ServiceName, ServiceDefinition<any>>>;
type ConfigOf<D> = D extends ServiceDefinition<infer C> ? C : never;

/** What the fleet needs of a started gateway. */
export interface StoppableGateway {
  stop(): Promise<void>;
}

/** Services and the real gateway in this process, each service's state in reach of the test. */
export interface LocalFleet<D extends Definitions, G extends StoppableGateway> {
  /** The gateway's base URL (no trailing slash; also every service's PUBLIC_URL). */
  url: string;
  gateway: G;
  services: { [K in keyof D]: TestService<ConfigOf<D[K]>> };
  /** Stops the gateway, then whatever service is still running, and removes the shared storage. */
  stop(): Promise<void>;
}

export interface LocalFleetOptions<D extends Definitions, G extends StoppableGateway> {
  /** The services to start, by name; identity (when given) first, so the others are pointed at it. */
  services: D;
  /** Starts the gateway: the caller passes `@anvil/gateway`'s `startGateway` (this lib sits below the gateway). */
  startGateway(options: { port: number; env: Record<string, string> }): Promise<G>;
  /** Settings of one service only. */
  serviceEnv?: Partial<Record<keyof D, Record<string, string>>>;
  /** Settings of the gateway only. */
  gatewayEnv?: Record<string, string>;
}

/** `stop` made safe to call again: a test may stop a service itself. */
function stopOnce<S extends { stop(): Promise<void> }>(svc: S): S {
  const stop = svc.stop.bind(svc);
  let stopped: Promise<void> | undefined;
  return Object.assign(svc, { stop: () => (stopped ??= stop()) });
}

/**
 * Starts `services` in this process (`startService`: fresh schemas, in-process bus, trusting the test
 * signing key), pointed at each other, and the real gateway in front on a port of its own, signing
 * with the test key, wired as in production (signed contexts over HTTP). The gateway and the
 * services share one storage directory and one Conan JWT secret, as in every deployment. For tests
 * that reach into a service's database or storage, or the gateway's caches, while they drive the API.
 */
export async function startLocalFleet<D extends Definitions, G extends StoppableGateway>(opts: LocalFleetOptions<D, G>): Promise<LocalFleet<D, G>> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const shared = { STORAGE_DIR: mkdtempSync(path.join(tmpdir(), 'anvil-fleet-')), CONAN_JWT_SECRET: generateToken('conan-'), PUBLIC_URL: url };
  const urls: Record<string, string> = {};
  const services: Partial<Record<ServiceName, TestService<any>>> = {};
  const defs = (Object.entries(opts.services) as [ServiceName, ServiceDefinition<any> | undefined][]).sort(([a], [b]) => Number(b === 'identity') - Number(a === 'identity'));
  let gateway: G | undefined;
  const stop = async () => {
    await gateway?.stop();
    for (const [n] of [...defs].reverse()) await services[n]?.stop();
    rmSync(shared.STORAGE_DIR, { recursive: true, force: true });
  };
  try {
    for (const [n, def] of defs) {
      if (!def) continue;
      const svc = await startService(def, { env: { ...shared, ...urls, ...opts.serviceEnv?.[n] } });
      services[n] = stopOnce(svc);
      urls[URL_VARS[n]] = svc.url;
    }
    gateway = await opts.startGateway({
      port,
      env: { ...shared, ...urls, PORT: String(port), GATEWAY_PRIVATE_KEY: testKeys.privateKey, INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...opts.gatewayEnv },
    });
    gateway = stopOnce(gateway);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, gateway, services: services as LocalFleet<D, G>['services'], stop };
}
