import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { ConfigOf, loadConfig, Schema, serviceSchema } from '@anvil/config';
import { ContextVerifier, IdentityClient } from '@anvil/auth';
import { applyLoginSettings, createDb, Knex, Migration, migrate, provisionService } from '@anvil/db';
import { createBus, Delivery, EventBus, EventEnvelope, EventMetrics, EventPruner, OutboxRelay, SubscribeOptions, Subscription } from '@anvil/events';
import { BadRequestError, createLogger, createServiceApp, drain, ErrorTranslator, Logger, ServiceAppOptions } from '@anvil/http';
import type { Router } from 'express';
import { translatePgError } from '@anvil/db';
import { createStorage, InvalidKeyError, Storage } from '@anvil/storage';

export type BaseConfig = ConfigOf<typeof serviceSchema>;

/** What a service's code receives: everything it talks to, already connected. */
export interface ServiceDeps<C = Record<string, unknown>> {
  name: string;
  schema: string;
  config: BaseConfig & C;
  db: Knex;
  /**
   * Postgres itself, as the service's login: the same pool as `db`, unless `db` goes through PgBouncer
   * (`DB_PGBOUNCER`), when it is a small pool on `DATABASE_DIRECT_URL` for what needs a session of its
   * own: LISTEN, session advisory locks, migrations.
   */
  directDb: Knex;
  bus: EventBus;
  storage: Storage;
  verifier: ContextVerifier;
  identity: IdentityClient;
  internalToken: string;
  log: Logger;
  /** The service's event metrics (served on `/metrics` by `serviceApp`). */
  metrics: EventMetrics;
}

/** A queue this service consumes: `<service>.<purpose>` bound to routing-key patterns. */
export interface Consumer {
  queue: string;
  patterns: string[];
  /** `delivery` is given by the bus (tests may call a handler without it). */
  handler: (event: EventEnvelope, delivery?: Delivery) => Promise<void>;
  options?: SubscribeOptions;
}

/** Everything the runtime needs to run one service; each service exports one. */
export interface ServiceDefinition<C = Record<string, unknown>> {
  name: string;
  /** Postgres schema (default: name with `-` → `_`). */
  schema?: string;
  migrations: Migration[];
  /** Extra env vars beyond `serviceSchema`. */
  configSchema?: Schema;
  /** Default port when PORT is 0/unset in the fleet. */
  defaultPort: number;
  createApp(deps: ServiceDeps<C>): Express;
  /** The service's queries are all short request reads and writes: plan them without parallel workers (`DbOptions.serialQueries`). */
  serialQueries?: boolean;
  /** Postgres extensions the migrations use (`DbOptions.extensions`). */
  extensions?: readonly string[];
  consumers?(deps: ServiceDeps<C>): Consumer[];
  onStart?(deps: ServiceDeps<C>): Promise<void>;
  onStop?(deps: ServiceDeps<C>): Promise<void>;
}

export interface BootOptions {
  env?: Record<string, string | undefined>;
  /** A bus shared by several services in one process (embedded mode); otherwise one is created from AMQP_URL. */
  bus?: EventBus;
  storage?: Storage;
  /** Overrides the schema name (tests use unique names). */
  schema?: string;
  /**
   * Creates the service's login first (`provisionService`) with an administrative URL and connects as
   * it: embedded mode, where one process holds the admin connection. Elsewhere the provisioning step
   * does it and the service gets only its own login's `DATABASE_URL`.
   */
  provision?: { adminUrl: string; password: string };
  /** Prefix for queue names (tests isolate runs on a shared broker). */
  queuePrefix?: string;
  /** Port to listen on (0 = any free port). */
  port?: number;
  logger?: Logger;
}

export interface RunningService<C = Record<string, unknown>> {
  name: string;
  url: string;
  port: number;
  server: http.Server;
  deps: ServiceDeps<C>;
  stop(): Promise<void>;
}

/** What a service adds to the shared app wiring: its public and internal routes. */
export interface ServiceRoutes {
  api?: (router: Router) => void;
  internal?: (router: Router) => void;
  /** Who may call `internal` routes, instead of the shared token (see `ServiceAppOptions.internalAuth`). */
  internalAuth?: ServiceAppOptions['internalAuth'];
  errorTranslators?: ErrorTranslator[];
  /** Requests whose body is a file to stream, never parsed (see `createServiceApp`). */
  streamBody?: ServiceAppOptions['streamBody'];
}

/**
 * A service's express app with the fleet's shared wiring: the deps' verifier, internal token and
 * logger, readiness that checks the database, and Postgres errors translated to GitLab's 4xx.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function serviceApp(deps: ServiceDeps<any>, routes: ServiceRoutes): Express {
  return createServiceApp({
    name: deps.name,
    verifier: deps.verifier,
    internalToken: deps.internalToken,
    logger: deps.log,
    readiness: async () => {
      await deps.db.raw('select 1');
      return true;
    },
    errorTranslators: [...(routes.errorTranslators ?? []), (e) => translatePgError(e), (e) => (e instanceof InvalidKeyError ? new BadRequestError('invalid file path') : undefined)],
    api: routes.api,
    internal: routes.internal,
    internalAuth: routes.internalAuth,
    streamBody: routes.streamBody,
    metrics: [deps.metrics.registry],
  });
}

/** Reads a PEM from env, accepting `\n`-escaped single-line values. */
export function pemFromEnv(v: string | undefined): string | undefined {
  return v ? v.replace(/\\n/g, '\n') : undefined;
}

/**
 * Boots a service: config → schema → db → migrations → bus → outbox relay and pruner → consumers → onStart → listen.
 * `stop()` undoes it in reverse order and closes what it created (not a shared bus or storage).
 */
export async function bootService<C>(def: ServiceDefinition<C>, opts: BootOptions = {}): Promise<RunningService<C>> {
  const env = opts.env ?? process.env;
  const config = loadConfig({ ...serviceSchema, ...(def.configSchema ?? {}) }, env) as BaseConfig & C;
  const log = opts.logger ?? createLogger(def.name, config.LOG_LEVEL);
  const schema = opts.schema ?? config.DB_SCHEMA ?? def.schema ?? def.name.replace(/-/g, '_');
  const publicKey = pemFromEnv(config.GATEWAY_PUBLIC_KEY);
  if (!publicKey) throw new Error(`${def.name}: GATEWAY_PUBLIC_KEY is required (the gateway's Ed25519 public key, PEM)`);
  const internalToken = config.INTERNAL_API_TOKEN;
  if (!internalToken) throw new Error(`${def.name}: INTERNAL_API_TOKEN is required`);

  const { db, directDb } = await connectDb(def, config, schema, opts.provision);
  const ownBus = !opts.bus;
  const bus = opts.bus ?? createBus(config.AMQP_URL as string, { logger: log, exchange: config.EVENTS_EXCHANGE });
  const storage = opts.storage ?? createStorage(config);
  const deps: ServiceDeps<C> = {
    name: def.name,
    schema,
    config,
    db,
    directDb,
    bus,
    storage,
    verifier: new ContextVerifier(publicKey, def.name),
    identity: new IdentityClient(config.IDENTITY_URL as string, internalToken),
    internalToken,
    log,
    metrics: new EventMetrics({ db, bus, labels: { service: def.name } }),
  };

  // the relay LISTENs, which PgBouncer's transaction mode cannot carry
  const relay = new OutboxRelay(directDb, bus, { logger: log, metrics: deps.metrics });
  relay.start();
  const pruner = new EventPruner(db, { retentionMs: config.EVENTS_RETENTION_HOURS * 3_600_000, logger: log });
  pruner.start();
  const subs: Subscription[] = [];
  // API-only processes leave the queues to a worker deployment of the same service
  const consumers = config.ROLE === 'api' ? [] : (def.consumers?.(deps) ?? []);
  for (const c of consumers) {
    const queue = `${opts.queuePrefix ?? config.QUEUE_PREFIX}${c.queue}`;
    subs.push(await bus.subscribe(queue, c.patterns, deps.metrics.counted(queue, c.handler), c.options));
  }
  await def.onStart?.(deps);

  const app = def.createApp(deps);
  // 1 MiB stream buffers: Node's 64 KiB default halves large upload throughput
  const server = http.createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 0, highWaterMark: 1 << 20 }, app);
  const port = opts.port ?? config.PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.HOST, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  log.info('listening', { port: actual, schema });
  return {
    name: def.name,
    url: `http://${config.HOST}:${actual}`,
    port: actual,
    server,
    deps,
    async stop() {
      await drain(server, config.SHUTDOWN_GRACE_MS);
      for (const s of subs) await s.close().catch(() => undefined);
      await def.onStop?.(deps);
      await pruner.stop();
      await relay.stop();
      if (ownBus) await bus.close();
      await db.destroy();
      if (directDb !== db) await directDb.destroy();
    },
  };
}

/** Connections a process of the service may hold on Postgres: `DB_POOL_MAX` (its pool, LISTEN included). */
export function poolMaxOf(config: { DB_POOL_MAX: number }): number {
  return config.DB_POOL_MAX;
}

/**
 * The connection budget the pool defaults are sized for: Postgres's default `max_connections`, less
 * what stays free for superusers (`superuser_reserved_connections`, 3), the provisioning step,
 * migrations at a rollout, and an operator's psql or backup. Two replicas of every process that
 * connects (six services, the project-transfer worker, the gateway) × their `DB_POOL_MAX` fit in the rest.
 */
export const DB_CONNECTION_BUDGET = { maxConnections: 100, reserved: 20, replicas: 2 } as const;

/** Connections a process holds on Postgres itself beside the pool when `db` goes through PgBouncer. */
export const DIRECT_POOL_MAX = 3;

/**
 * The service's pools, as its own login (no `SET ROLE`): with `provision`, the login is created
 * first; otherwise the schema must exist already (the provisioning step made it). Migrations
 * run as the login, on Postgres itself.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function connectDb(def: ServiceDefinition<any>, config: BaseConfig, schema: string, provision?: BootOptions['provision']): Promise<{ db: Knex; directDb: Knex }> {
  let url = config.DATABASE_URL as string;
  if (provision) url = await provisionService({ adminUrl: provision.adminUrl, schema, password: provision.password, serialQueries: def.serialQueries, extensions: def.extensions });
  const pgbouncer = config.DB_PGBOUNCER;
  if (pgbouncer && !config.DATABASE_DIRECT_URL) throw new Error(`${def.name}: DB_PGBOUNCER needs DATABASE_DIRECT_URL (Postgres itself, for LISTEN and migrations)`);
  const db = createDb({ url, schema, role: false, pgbouncer, serialQueries: def.serialQueries, pool: { min: 0, max: poolMaxOf(config) } });
  const directDb = pgbouncer ? createDb({ url: config.DATABASE_DIRECT_URL as string, schema, role: false, serialQueries: def.serialQueries, pool: { min: 0, max: DIRECT_POOL_MAX } }) : db;
  try {
    const found = await directDb.raw('SELECT 1 FROM pg_namespace WHERE nspname = ?', [schema]);
    if (!found.rows.length) throw new Error(`${def.name}: schema ${schema} does not exist: provision the service's login first (deploy/scripts/provision.ts)`);
    if (pgbouncer) await applyLoginSettings(directDb, schema, def.serialQueries ?? false);
    await migrate(directDb, schema, def.migrations);
    return { db, directDb };
  } catch (e) {
    await db.destroy();
    if (directDb !== db) await directDb.destroy();
    throw e;
  }
}

/** Process entry for running one service on its own: boots it and stops cleanly on SIGINT/SIGTERM. */
export function runMain<C>(def: ServiceDefinition<C>): void {
  const env = { ...process.env, PORT: process.env.PORT || String(def.defaultPort) };
  bootService(def, { env })
    .then((svc) => {
      const shutdown = () => {
        svc.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    })
    .catch((e) => {
      process.stderr.write(`${def.name} failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
export { PROCESS_ENV, processArgs, withProcessEnv } from './process-env';
