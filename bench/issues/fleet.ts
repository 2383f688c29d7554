/**
 * A small fleet for the issues benchmark: identity, work-items and the gateway as separate node
 * processes on loopback, each service on a schema named here (so the seeder can bulk-load the
 * work-items schema), over RabbitMQ when reachable.
 */
import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { generateContextKeys, generateToken } from '@anvil/auth';

const ROOT = path.resolve(__dirname, '..', '..');

export interface BenchFleet {
  url: string;
  adminToken: string;
  schemas: { identity: string; workItems: string };
  pids: Record<string, number>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

function spawnNode(entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, entry)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

async function ready(url: string, child: ChildProcess, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/-/readiness`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url}: not ready`);
}

/** Starts identity, work-items and the gateway; `stop()` ends them (the schemas stay for inspection unless dropped). */
export async function startBenchFleet(databaseUrl: string, run: string): Promise<BenchFleet> {
  const keys = generateContextKeys();
  const adminToken = generateToken();
  const [idPort, wiPort, gwPort] = [await freePort(), await freePort(), await freePort()];
  const amqp = (await tcpOpen(5672)) ? 'amqp://guest:guest@127.0.0.1:5672' : 'memory://';
  const schemas = { identity: `${run}_identity`, workItems: `${run}_work_items` };
  const base: Record<string, string> = {
    DATABASE_URL: databaseUrl, AMQP_URL: amqp, EVENTS_EXCHANGE: `${run}.events`, QUEUE_PREFIX: `${run}.`,
    GATEWAY_PUBLIC_KEY: keys.publicKey, INTERNAL_API_TOKEN: generateToken('internal-'), ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${gwPort}`, HOST: '127.0.0.1',
    IDENTITY_URL: `http://127.0.0.1:${idPort}`, WORK_ITEMS_URL: `http://127.0.0.1:${wiPort}`, STORAGE_DIR: path.join(ROOT, '.data', `${run}-files`),
  };
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map((c) => new Promise<void>((resolve) => {
      if (c.exitCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
      setTimeout(() => c.kill('SIGKILL'), 5000).unref();
    })));
  };
  try {
    const identity = spawnNode('services/identity/src/main.ts', { ...base, PORT: String(idPort), DB_SCHEMA: schemas.identity });
    children.push(identity);
    await ready(base.IDENTITY_URL, identity);
    const workItems = spawnNode('services/work-items/src/main.ts', { ...base, PORT: String(wiPort), DB_SCHEMA: schemas.workItems });
    children.push(workItems);
    await ready(base.WORK_ITEMS_URL, workItems);
    const gateway = spawnNode('gateway/src/main.ts', { ...base, PORT: String(gwPort), GATEWAY_PRIVATE_KEY: keys.privateKey });
    children.push(gateway);
    await ready(`http://127.0.0.1:${gwPort}`, gateway);
    return {
      url: `http://127.0.0.1:${gwPort}`, adminToken, schemas, stop,
      pids: { gateway: gateway.pid as number, 'work-items': workItems.pid as number, identity: identity.pid as number },
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
