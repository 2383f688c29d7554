import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@anvil/testing';

const run = promisify(execFile);

/** A database or broker of the benchmark's own, which it may restart without touching the machine's. */
export interface PrivateServer {
  url: string;
  /** Stops it cleanly and starts it again on the same port with the same data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Looks up a system user's uid and gid (`postgres`, `rabbitmq`): their servers refuse to run as root. */
async function ids(user: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

async function waitPort(port: number, ms: number): Promise<void> {
  const net = await import('node:net');
  const until = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A PostgreSQL cluster of its own (Debian's binaries, `/usr/lib/postgresql/<version>/bin`), trust auth
 * on loopback, run as the `postgres` system user.
 */
export async function privatePostgres(): Promise<PrivateServer> {
  const { stdout } = await run('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1']);
  const bin = stdout.trim();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-chaos-pg-'));
  const { uid, gid } = await ids('postgres');
  chownSync(dir, uid, gid);
  const port = await freePort();
  const as = { uid, gid, env: { ...process.env, LC_ALL: 'C.UTF-8' } };
  await run(`${bin}/initdb`, ['-D', `${dir}/data`, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8'], as);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const ctl = (...args: string[]) => run(`${bin}/pg_ctl`, ['-D', `${dir}/data`, ...args], as);
  const start = () => ctl('-o', opts, '-l', `${dir}/log`, '-w', 'start');
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await ctl('-m', 'fast', '-w', 'stop');
      await start();
    },
    async stop() {
      await ctl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A RabbitMQ node of its own (Debian's `rabbitmq-server`), with its own name, ports and data. */
export async function privateRabbit(): Promise<PrivateServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-chaos-mq-'));
  const [port, dist] = [await freePort(), await freePort()];
  const node = `anvil-chaos-${port}@localhost`;
  mkdirSync(`${dir}/log`);
  writeFileSync(`${dir}/plugins`, '[].\n');
  const { uid, gid } = await ids('rabbitmq');
  for (const p of [dir, `${dir}/log`, `${dir}/plugins`]) chownSync(p, uid, gid);
  const env = {
    ...process.env,
    RABBITMQ_NODENAME: node, RABBITMQ_NODE_PORT: String(port), RABBITMQ_DIST_PORT: String(dist),
    RABBITMQ_MNESIA_BASE: `${dir}/mnesia`, RABBITMQ_LOG_BASE: `${dir}/log`, RABBITMQ_PID_FILE: `${dir}/pid`,
    RABBITMQ_ENABLED_PLUGINS_FILE: `${dir}/plugins`, RABBITMQ_CONFIG_FILE: `${dir}/rabbitmq`,
  };
  const start = async () => {
    await run('rabbitmq-server', ['-detached'], { env });
    await run('rabbitmqctl', ['-n', node, 'wait', `${dir}/pid`, '--timeout', '60'], { env });
    await waitPort(port, 30_000);
  };
  const stop = () => run('rabbitmqctl', ['-n', node, 'stop'], { env });
  await start().catch((e) => {
    throw new Error(`rabbitmq-server did not start (apt-get install rabbitmq-server): ${(e as Error).message}`);
  });
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    async restart() {
      await stop();
      await start();
    },
    async stop() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
