import { EventEmitter } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { CONTEXT_HEADER } from '@anvil/auth';
import { serviceApp, type ServiceDefinition } from '@anvil/runtime';
import { signFor, startService, type TestService } from '@anvil/testing';

/** A service whose `/api/v4/slow` answers only once `release` is emitted. */
const gate = new EventEmitter();
const slow: ServiceDefinition = {
  name: 'slowpoke',
  migrations: [],
  defaultPort: 0,
  createApp: (deps) =>
    serviceApp(deps, {
      api: (router) => {
        router.get('/slow', (_req, res) => {
          gate.emit('entered');
          gate.once('release', () => res.json({ done: true }));
        });
      },
    }),
};

async function get(port: number, agent: http.Agent | false): Promise<{ status: number; body: string; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v4/slow', agent, headers: { [CONTEXT_HEADER]: signFor('GET', '/api/v4/slow', {}, 'slowpoke') } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, socket: req.socket! }));
    });
    req.on('error', reject);
  });
}

describe('a service stopping (libs/runtime)', () => {
  let svc: TestService;
  afterEach(async () => svc?.stop().catch(() => undefined));

  test('finishes the request in flight within SHUTDOWN_GRACE_MS, refuses new connections, closes idle ones at once', async () => {
    svc = await startService(slow, { env: { SHUTDOWN_GRACE_MS: '20000' } });
    const keepAlive = new http.Agent({ keepAlive: true });
    const warm = get(svc.port, keepAlive);
    await new Promise((r) => gate.once('entered', r));
    gate.emit('release');
    const idle = (await warm).socket;
    const idleClosed = new Promise<void>((r) => idle.once('close', () => r()));

    const inFlight = get(svc.port, false);
    await new Promise((r) => gate.once('entered', r));
    let stopped = false;
    const stopping = svc.stop().then(() => (stopped = true));
    await idleClosed;
    const refused = await new Promise<string>((resolve) => {
      const c = net.connect(svc.port, '127.0.0.1');
      c.once('connect', () => (c.destroy(), resolve('connected')));
      c.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(stopped).toBe(false);
    gate.emit('release');
    expect(await inFlight).toMatchObject({ status: 200, body: '{"done":true}' });
    await stopping;
    keepAlive.destroy();
  });

  test('cuts what is left once the grace is over', async () => {
    svc = await startService(slow, { env: { SHUTDOWN_GRACE_MS: '300' } });
    const inFlight = get(svc.port, false).catch((e: NodeJS.ErrnoException) => e.code);
    await new Promise((r) => gate.once('entered', r));
    const started = Date.now();
    await svc.stop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await inFlight).toBe('ECONNRESET');
    gate.removeAllListeners('release');
  });
});
