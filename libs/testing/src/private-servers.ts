import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './fleet';
import { tcpOpen } from './global-setup';

/** A server process of the test's own, on loopback ports of its own, that a test may restart. */
export interface PrivateServer {
  /** The client URL (`amqp://guest:guest@127.0.0.1:<port>` or `postgres://postgres@127.0.0.1:<port>/postgres`). */
  url: string;
  port: number;
  /** Stops the server cleanly, keeping its data. */
  halt(): Promise<void>;
  /** Starts it again on the same port with the same data and waits until it accepts connections. */
  start(): Promise<void>;
  /** `halt()` then `start()`. */
  restart(): Promise<void>;
  /** Stops it and deletes its data. */
  stop(): Promise<void>;
  /** What the server printed lately (for a failure's message). */
  output(): string;
}

function which(cmd: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, ms = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: ms }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd} ${args.join(' ')} failed: ${stderr || stdout || err.message}`)) : resolve(stdout)));
  });
}

function uidOf(user: string): number | null {
  const r = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

async function waitPort(port: number, what: string, child: () => ChildProcess | null, output: () => string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await tcpOpen('127.0.0.1', port, 500)) return;
    const c = child();
    if (c && c.exitCode !== null) throw new Error(`${what} exited (${c.exitCode}) before listening on ${port}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not listen on ${port} within ${ms} ms:\n${output()}`);
}

function keepOutput(child: ChildProcess, sink: { text: string }): void {
  const keep = (b: Buffer) => (sink.text = (sink.text + b.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
}

function exited(child: ChildProcess | null, ms: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/**
 * A RabbitMQ node of the test's own (`rabbitmq-server` with its own node name, AMQP and distribution
 * ports, data and log directories in a temp dir, no plugins), so a test can restart a broker without
 * touching the machine's. Fails with a clear message when rabbitmq-server is not installed.
 */
export async function privateRabbit(): Promise<PrivateServer> {
  const server = which('rabbitmq-server');
  const ctl = which('rabbitmqctl');
  if (!server || !ctl) throw new Error('rabbitmq-server and rabbitmqctl are required for the broker-restart tests: apt-get install rabbitmq-server');
  const port = await freePort();
  const distPort = await freePort();
  const node = `anvil-test-${port}@localhost`;
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-rabbit-'));
  mkdirSync(path.join(dir, 'mnesia'));
  mkdirSync(path.join(dir, 'log'));
  writeFileSync(path.join(dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${port}\nloopback_users = none\n`);
  writeFileSync(path.join(dir, 'enabled_plugins'), '[].\n');
  // as root the packaged scripts run the node as the rabbitmq user, which must own the directory
  const rabbitUid = process.getuid?.() === 0 ? uidOf('rabbitmq') : null;
  if (rabbitUid !== null) for (const d of ['', 'mnesia', 'log', 'rabbitmq.conf', 'enabled_plugins']) chownSync(path.join(dir, d), rabbitUid, -1);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_PID_FILE: path.join(dir, 'rabbit.pid'),
  };
  let child: ChildProcess | null = null;
  const out = { text: '' };
  const start = async () => {
    child = spawn(server, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    keepOutput(child, out);
    await waitPort(port, `rabbitmq-server ${node}`, () => child, () => out.text);
    await run(ctl, ['-n', node, 'await_startup'], env);
  };
  const halt = async () => {
    if (child && child.exitCode === null && child.signalCode === null) await run(ctl, ['-n', node, 'stop'], env).catch(() => undefined);
    await exited(child, 30_000);
    child = null;
  };
  const stop = async () => {
    await halt();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await start();
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `amqp://guest:guest@127.0.0.1:${port}`, port, start, halt, restart: async () => (await halt(), await start()), stop, output: () => out.text };
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A Postgres 15 cluster of the test's own (`initdb` with trust auth in a temp dir, `pg_ctl` on a free
 * loopback port), so a test can restart a database without touching the machine's. As root the cluster
 * runs as the `postgres` user. Fails with a clear message when the server binaries are missing.
 */
export async function privatePostgres(): Promise<PrivateServer> {
  if (!existsSync(`${PG_BIN}/initdb`) || !existsSync(`${PG_BIN}/pg_ctl`)) throw new Error(`PostgreSQL 15 server binaries are required for the database-restart tests (${PG_BIN}): apt-get install postgresql-15`);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-pg-'));
  const asPostgres = process.getuid?.() === 0;
  const pgUid = asPostgres ? uidOf('postgres') : null;
  if (asPostgres && pgUid === null) throw new Error('running as root, the private Postgres needs a postgres user to run as');
  if (pgUid !== null) chownSync(dir, pgUid, -1);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const pgRun = (bin: string, args: string[]) => (asPostgres ? run('runuser', ['-u', 'postgres', '--', `${PG_BIN}/${bin}`, ...args], process.env) : run(`${PG_BIN}/${bin}`, args, process.env));
  const out = { text: '' };
  const output = () => {
    try {
      return spawnSync('tail', ['-n', '40', logFile], { encoding: 'utf8' }).stdout + out.text;
    } catch {
      return out.text;
    }
  };
  await pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = async () => {
    try {
      out.text = await pgRun('pg_ctl', ['-D', data, '-l', logFile, '-o', opts, '-w', '-t', '60', 'start']);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${output()}`);
    }
    await waitPort(port, 'postgres', () => null, output);
  };
  const halt = async () => {
    await pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']).catch(() => undefined);
  };
  const stop = async () => {
    await pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await start();
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, start, halt, restart: async () => (await halt(), await start()), stop, output };
}
