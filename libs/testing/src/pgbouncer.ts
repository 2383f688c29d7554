import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './fleet';
import { tcpOpen } from './global-setup';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** A private PgBouncer in transaction pooling mode in front of one Postgres database. */
export interface PgBouncer {
  port: number;
  /** `postgres://user:password@127.0.0.1:<port>/<database>`: `login` through the bouncer. */
  urlFor(login: { user: string; password: string }): string;
  /** Its counters per database (`SHOW STATS` on the admin console). */
  stats(): Promise<Array<Record<string, string>>>;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer on a free loopback port, `pool_mode = transaction`, `default_pool_size` server
 * connections per login, for `logins` (md5 auth, the same passwords towards Postgres) in front of
 * the database of `postgresUrl`. The first login may read the admin console.
 */
export async function startPgBouncer(postgresUrl: string, logins: Array<{ user: string; password: string }>, opts: { poolSize?: number } = {}): Promise<PgBouncer> {
  const u = new URL(postgresUrl);
  const database = u.pathname.replace(/^\//, '') || 'postgres';
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-pgbouncer-'));
  chmodSync(dir, 0o755);
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  writeFileSync(path.join(dir, 'userlist.txt'), logins.map((l) => `${q(l.user)} ${q(l.password)}`).join('\n') + '\n', { mode: 0o644 });
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${u.hostname} port=${u.port || 5432} dbname=${database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = md5',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${opts.poolSize ?? 4}`,
      'max_client_conn = 200',
      `admin_users = ${logins[0].user}`,
      'ignore_startup_parameters = extra_float_digits',
      'server_reset_query =',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  // it refuses to run as root: drop to the postgres user then
  const args = [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')];
  const proc: ChildProcess = spawn(PGBOUNCER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-10_000)));
  proc.stderr!.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-10_000)));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 10_000;
  while (!(await tcpOpen('127.0.0.1', port, 200))) {
    if (proc.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`pgbouncer did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const urlFor = (l: { user: string; password: string }) => `postgres://${encodeURIComponent(l.user)}:${encodeURIComponent(l.password)}@127.0.0.1:${port}/${database}`;
  return {
    port,
    urlFor,
    async stats() {
      const c = new pg.Client({ connectionString: urlFor(logins[0]).replace(/\/[^/]*$/, '/pgbouncer') });
      await c.connect();
      try {
        return (await c.query('SHOW STATS')).rows as Array<Record<string, string>>;
      } finally {
        await c.end();
      }
    },
    stop,
  };
}
