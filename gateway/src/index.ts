import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { IdentityClient } from '@anvil/auth';
import { loadConfig } from '@anvil/config';
import type { EventBus, Subscription } from '@anvil/events';
import { bufferedStdout, createLogger, type Logger } from '@anvil/log';
import { createStorage, prepareStorage } from '@anvil/storage';
import { AccessLog } from './access-log';
import { configSchema, GatewayConfig } from './config';
import { Gateway } from './gateway';
import { createUpstream, Upstream } from './proxy';
import { ServiceName } from './routes';
import { GatewaySigner } from './signer';
import { Transfers } from './transfers';

export { configSchema } from './config';
export type { GatewayConfig } from './config';
export { Gateway } from './gateway';
export { PREAUTHORIZE_ABOVE } from './accelerated-upload';
export { ROUTES } from './routes';
export type { RouteDef, ServiceName, Resolve } from './routes';
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
}

export interface RunningGateway {
  url: string;
  port: number;
  server: http.Server;
  gateway: Gateway;
  stop(): Promise<void>;
}

/** The queue on which the gateway hears identity's and the registry's events to invalidate its caches. */
export const CACHE_QUEUE = 'gateway.cache';

function upstreams(config: GatewayConfig): Record<ServiceName, Upstream> {
  return {
    identity: createUpstream('identity', config.IDENTITY_URL as string),
    registry: createUpstream('registry', config.REGISTRY_URL as string),
    'project-transfer': createUpstream('project-transfer', config.PROJECT_TRANSFER_URL as string),
    'work-items': createUpstream('work-items', config.WORK_ITEMS_URL as string),
    pipelines: createUpstream('pipelines', config.PIPELINES_URL as string),
    alerting: createUpstream('alerting', config.ALERTING_URL as string),
  };
}

function required(config: GatewayConfig): { privateKey: string; internalToken: string } {
  const privateKey = config.GATEWAY_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (!privateKey) throw new Error('gateway: GATEWAY_PRIVATE_KEY is required (Ed25519 private key, PEM)');
  if (!config.INTERNAL_API_TOKEN) throw new Error('gateway: INTERNAL_API_TOKEN is required (identity internal API token)');
  if (!config.CONAN_JWT_SECRET) throw new Error('gateway: CONAN_JWT_SECRET is required (HS256 key of the Conan registry JWTs, as the registry has it)');
  return { privateKey, internalToken: config.INTERNAL_API_TOKEN };
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
  let transfers: Transfers | undefined;
  if (config.ACCELERATED_TRANSFERS) {
    const storage = createStorage(config);
    await prepareStorage(storage);
    transfers = new Transfers(storage, logger, config.CLIENT_SEND_TIMEOUT_MS);
    transfers.startSweeping();
  }
  const gateway = new Gateway({
    config,
    signer,
    identity: new IdentityClient(config.IDENTITY_URL as string, internalToken),
    upstreams: ups,
    // flushed by `gateway.stop()`, and at process exit by pino
    accessLog: new AccessLog(logsRequests ? (opts.accessLogStream ?? bufferedStdout()) : null),
    logger,
    transfers,
  });

  // the bus library (amqplib) is loaded only when the gateway runs on its own against RabbitMQ;
  // `require`, not `import()`: the process runs under tsx's CommonJS hooks, which a dynamic import bypasses
  const ownBus = !opts.bus && /^amqps?:/.test(config.AMQP_URL as string) ? (require('@anvil/events') as typeof import('@anvil/events')).createBus(config.AMQP_URL as string, { logger, exchange: config.EVENTS_EXCHANGE }) : undefined;
  const bus = opts.bus ?? ownBus;
  let sub: Subscription | undefined;
  // one transient queue per gateway process: every replica hears every identity and registry event
  const replica = `${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`;
  if (bus) sub = await bus.subscribe(`${opts.queuePrefix ?? config.QUEUE_PREFIX}${CACHE_QUEUE}.${replica}`, ['identity.#', 'registry.#'], async (e) => gateway.invalidate(e.type, e.data), { transient: true });

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
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      gateway.stop();
      transfers?.stop();
      await Promise.all(Object.values(ups).map((u) => u.pool.destroy()));
      await sub?.close().catch(() => undefined);
      await ownBus?.close();
    },
  };
}
