import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { IdentityClient } from '@anvil/auth';
import { loadConfig } from '@anvil/config';
import { drain } from '@anvil/http';
import type { EventBus, Subscription } from '@anvil/events';
import { bufferedStdout, createLogger, type Logger } from '@anvil/log';
import { createStorage, prepareStorage } from '@anvil/storage';
import { AccessLog } from './access-log';
import { configSchema, GatewayConfig } from './config';
import { requireCredentialSettings } from './credentials';
import { Gateway } from './gateway';
import { RequestLimits } from './limits';
import { createUpstream, Upstream } from './proxy';
import { type RouteDef, SERVICES, ServiceName } from './routes';
import { GatewaySigner } from './signer';
import { Transfers } from './transfers';

export { configSchema } from './config';
export type { GatewayConfig } from './config';
export { Gateway } from './gateway';
export { PREAUTHORIZE_ABOVE } from './accelerated-upload';
export { ROUTES, SERVICES } from './routes';
export type { RouteBehaviour, RouteDef, ServiceName, Resolve } from './routes';
export { RouteMatcher } from './matcher';

export interface StartGatewayOptions {
  env?: Record<string, string | undefined>;
  /** A bus shared with the services (embedded mode); otherwise one is created when AMQP_URL is amqp(s)://. */
  bus?: EventBus;
  /** Port to listen on (0 = any free port); defaults to PORT. */
  port?: number;
  /** Prefix for the cache-invalidation queue name (default QUEUE_PREFIX; tests isolate runs on a shared broker). */
  queuePrefix?: string;
  /** Where access-log lines go (default stdout, batched; LOG_LEVEL=silent or warn/error turns them off). */
  accessLogStream?: NodeJS.WritableStream;
  logger?: Logger;
  /** The routing table (default ROUTES). */
  routes?: RouteDef[];
}

export interface RunningGateway {
  url: string;
  port: number;
  server: http.Server;
  gateway: Gateway;
  /**
   * Stops: no new connections, readiness fails, idle keep-alive connections close at once, requests in
   * flight (uploads too) get up to `graceMs` (default SHUTDOWN_GRACE_MS) to finish, then what is left is cut.
   */
  stop(graceMs?: number): Promise<void>;
}

/** The queue on which the gateway hears identity's events, and those its routes name, to invalidate its caches. */
export const CACHE_QUEUE = 'gateway.cache';

/** A connection pool for every service of the routing table, at the URL its variable names. */
function upstreams(config: GatewayConfig): Record<ServiceName, Upstream> {
  const names = Object.keys(SERVICES) as ServiceName[];
  return Object.fromEntries(names.map((name) => [name, createUpstream(name, config[SERVICES[name].urlVariable] as string)])) as Record<ServiceName, Upstream>;
}

function required(config: GatewayConfig): { privateKey: string; internalToken: string } {
  const privateKey = config.GATEWAY_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (!privateKey) throw new Error('gateway: GATEWAY_PRIVATE_KEY is required (Ed25519 private key, PEM)');
  if (!config.INTERNAL_API_TOKEN) throw new Error('gateway: INTERNAL_API_TOKEN is required (identity internal API token)');
  requireCredentialSettings(config);
  return { privateKey, internalToken: config.INTERNAL_API_TOKEN };
}

/** Storage for accelerated transfers, prepared, with its sweep of unclaimed upload bodies running. */
async function startTransfers(config: GatewayConfig, logger: Logger): Promise<Transfers> {
  const storage = createStorage(config);
  await prepareStorage(storage);
  const transfers = new Transfers(storage, logger, config.CLIENT_SEND_TIMEOUT_MS);
  transfers.startSweeping();
  return transfers;
}

/**
 * Subscribes the gateway's cache invalidation to identity's events and those its routes name, on the
 * given bus or, for an amqp(s) AMQP_URL, on one it creates (`ownBus`, to close with the subscription).
 */
async function subscribeCaches(gateway: Gateway, config: GatewayConfig, opts: StartGatewayOptions, logger: Logger): Promise<{ sub?: Subscription; ownBus?: EventBus }> {
  // the bus library (amqplib) is loaded only when the gateway runs on its own against RabbitMQ;
  // `require`, not `import()`: the process runs under tsx's CommonJS hooks, which a dynamic import bypasses
  const ownBus = !opts.bus && /^amqps?:/.test(config.AMQP_URL as string) ? (require('@anvil/events') as typeof import('@anvil/events')).createBus(config.AMQP_URL as string, { logger, exchange: config.EVENTS_EXCHANGE }) : undefined;
  const bus = opts.bus ?? ownBus;
  if (!bus) return { ownBus };
  // one transient queue per gateway process: every replica hears every event that concerns its caches
  const replica = `${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`;
  const queue = `${opts.queuePrefix ?? config.QUEUE_PREFIX}${CACHE_QUEUE}.${replica}`;
  const sub = await bus.subscribe(queue, ['identity.#', ...gateway.eventPatterns], async (e) => gateway.invalidate(e.type, e.data), { transient: true });
  return { sub, ownBus };
}

/**
 * Starts the gateway: config → signer → storage for accelerated transfers → identity client →
 * upstream agents → cache-invalidation subscription → listen. `stop()` closes the server, the subscription and a bus it created.
 */
export async function startGateway(opts: StartGatewayOptions = {}): Promise<RunningGateway> {
  const config = loadConfig(configSchema, opts.env ?? process.env);
  const { privateKey, internalToken } = required(config);
  const logger = opts.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const logsRequests = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'info';
  const ups = upstreams(config);
  const signer = new GatewaySigner(privateKey);
  const transfers = config.ACCELERATED_TRANSFERS ? await startTransfers(config, logger) : undefined;
  const limits = await RequestLimits.start(config).catch((e: unknown) => {
    transfers?.stop();
    throw e;
  });
  const gateway = new Gateway({
    config,
    signer,
    identity: new IdentityClient(config.IDENTITY_URL as string, internalToken),
    upstreams: ups,
    // flushed by `gateway.stop()`, and at process exit by pino
    accessLog: new AccessLog(logsRequests ? (opts.accessLogStream ?? bufferedStdout()) : null),
    logger,
    transfers,
    routes: opts.routes,
    limits,
  });

  const { sub, ownBus } = await subscribeCaches(gateway, config, opts, logger);
  const server = http.createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 0, highWaterMark: 1 << 20 }, gateway.handle);
  server.on('checkContinue', gateway.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? config.PORT, config.HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info('listening', { port, signer: signer.implementation });
  return {
    url: `http://${config.HOST}:${port}`,
    port,
    server,
    gateway,
    async stop(graceMs = config.SHUTDOWN_GRACE_MS) {
      gateway.draining = true;
      await drain(server, graceMs);
      gateway.stop();
      await limits?.stop();
      transfers?.stop();
      await Promise.all(Object.values(ups).map((u) => u.pool.destroy()));
      await sub?.close().catch(() => undefined);
      await ownBus?.close();
    },
  };
}
