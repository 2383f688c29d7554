import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startFleet, type Fleet } from '@anvil/testing';
import { request } from './http-client';

/** Something the benchmark uploads to and downloads from. */
export interface Target {
  name: string;
  /** URL of the file slot the runs PUT and GET. */
  fileUrl: string;
  /** URLs for the latency runs. */
  pingUrl: string;
  authUrl: string;
  authHeaders: Record<string, string>;
  /** Headers carrying the registry token (Bearer JWT) for file transfers. */
  headers: Record<string, string>;
  /** Processes whose peak RSS is reported, by label. */
  pids: Record<string, number>;
  stop(): Promise<void>;
}

const RREV = 'd41d8cd98f00b204e9800998ecf8427e';
const basic = (user: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` });

async function ok(r: Promise<{ status: number; text: string }>, what: string): Promise<string> {
  const x = await r;
  if (x.status >= 300) throw new Error(`${what}: ${x.status} ${x.text}`);
  return x.text;
}

/** Anvil: identity, registry and the gateway as separate processes (libs/testing startFleet), local storage. */
export async function startAnvil(): Promise<Target> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const fleet: Fleet = await startFleet({ services: ['identity', 'registry'], databaseUrl, amqp: false, env: { LOG_LEVEL: 'warn' } });
  const api = `${fleet.url}/api/v4`;
  const admin = { 'PRIVATE-TOKEN': fleet.adminToken };
  const user = JSON.parse(await ok(request(`${api}/users`, 'POST', admin, { username: 'bench', name: 'bench', email: 'bench@example.com', password: 'S3cure-pass-phrase!', skip_confirmation: true }), 'create user'));
  const pat = JSON.parse(await ok(request(`${api}/users/${user.id}/personal_access_tokens`, 'POST', admin, { name: 'bench', scopes: ['api'] }), 'create token')).token as string;
  const project = JSON.parse(await ok(request(`${api}/projects`, 'POST', { 'PRIVATE-TOKEN': pat }, { name: 'bench', path: 'bench', visibility: 'private' }), 'create project'));
  const conan = `${api}/projects/${project.id}/packages/conan`;
  const jwt = await ok(request(`${conan}/v2/users/authenticate`, 'GET', basic('bench', pat)), 'authenticate');
  return {
    name: 'anvil (gateway → registry)',
    fileUrl: `${conan}/v2/conans/bench/1.0/_/_/revisions/${RREV}/files/conan_sources.tgz`,
    pingUrl: `${conan}/v1/ping`,
    authUrl: `${conan}/v2/users/authenticate`,
    authHeaders: basic('bench', pat),
    headers: { Authorization: `Bearer ${jwt}` },
    pids: { gateway: fleet.gateway.process.pid!, registry: fleet.services.registry.process.pid! },
    stop: () => fleet.stop(),
  };
}

const SERVER_CONF = (port: number, dir: string) => `[server]
jwt_secret: bench-jwt-secret
jwt_expire_minutes: 120
ssl_enabled: False
port: ${port}
public_port:
host_name: 127.0.0.1
authorize_timeout: 1800
disk_storage_path: ${dir}/data
disk_authorize_timeout: 1800
updown_secret: bench-updown-secret

[write_permissions]
*/*@*/*: demo

[read_permissions]
*/*@*/*: *

[users]
demo: demo
`;

async function waitPing(url: string, proc: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) throw new Error(`conan_server exited: ${log()}`);
    const r = await request(url, 'GET', {}).catch(() => null);
    if (r?.status === 200) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`conan_server did not answer: ${log()}`);
}

/**
 * Conan's reference server from a conan-io/conan checkout (CONAN2_SRC): under gunicorn with 4 workers
 * (`workers` = 4) or single-threaded (bottle's own server, `workers` = 0).
 */
export async function startConanServer(src: string, workers: number, python = '/usr/bin/python3'): Promise<Target> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-conan-server-'));
  const port = await freePort();
  writeFileSync(path.join(dir, 'server.conf'), SERVER_CONF(port, dir));
  const env = { ...process.env, PYTHONPATH: src, CONAN_SERVER_HOME: dir };
  const args = workers > 0 ? ['-m', 'gunicorn', '-w', String(workers), '-b', `127.0.0.1:${port}`, '--timeout', '600', 'conans.server.server_launcher:app'] : ['-m', 'conans.conan_server', '-d', dir];
  const proc = spawn(python, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out = (out + b).slice(-5000)));
  proc.stderr!.on('data', (b: Buffer) => (out = (out + b).slice(-5000)));
  const base = `http://127.0.0.1:${port}`;
  await waitPing(`${base}/v1/ping`, proc, () => out);
  const jwt = await ok(request(`${base}/v2/users/authenticate`, 'GET', basic('demo', 'demo')), 'conan_server authenticate');
  return {
    name: workers > 0 ? `conan_server (gunicorn -w ${workers})` : 'conan_server (single-threaded)',
    fileUrl: `${base}/v2/conans/bench/1.0/_/_/revisions/${RREV}/files/conan_sources.tgz`,
    pingUrl: `${base}/v1/ping`,
    authUrl: `${base}/v2/users/authenticate`,
    authHeaders: basic('demo', 'demo'),
    headers: { Authorization: `Bearer ${jwt}` },
    pids: { server: proc.pid! },
    async stop() {
      await new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
