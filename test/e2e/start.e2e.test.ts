import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@anvil/testing';
import { client } from './http';

const ROOT = path.resolve(__dirname, '../..');
/** Conan routes take a personal access token as the Basic password (never from PRIVATE-TOKEN). */
const conanAuth = (token: string) => ({ Authorization: `Basic ${Buffer.from(`root:${token}`).toString('base64')}` });

interface Started {
  proc: ChildProcess;
  url: string;
  token: string;
  output: () => string;
}

/** Runs the README's start command (without the install step) on the embedded default. */
async function start(env: Record<string, string>): Promise<Started> {
  const clean = { ...process.env };
  for (const k of ['DATABASE_URL', 'AMQP_URL', 'STORAGE_DRIVER', 'ADMIN_TOKEN', 'GATEWAY_PRIVATE_KEY', 'GATEWAY_PUBLIC_KEY', 'INTERNAL_API_TOKEN']) delete clean[k];
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: ROOT, env: { ...clean, ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    const up = /Anvil is up: (\S+)\/api\/v4/.exec(out);
    const tok = /personal access token: (\S+)/.exec(out);
    if (up && tok) return { proc, url: up[1], token: tok[1], output: () => out };
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  proc.kill('SIGKILL');
  throw new Error(`start command did not come up:\n${out}`);
}

/** Sends `signal` (Ctrl-C by default) and resolves with the exit code (null when a signal killed it). */
function stop(s: Started, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
  return new Promise((resolve) => {
    s.proc.once('exit', (code) => resolve(code));
    s.proc.kill(signal);
  });
}

describe('npm start (embedded Postgres, in-process bus, local files)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'anvil-start-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    const [pg, gw, ...svc] = await Promise.all(Array.from({ length: 8 }, () => freePort()));
    env = {
      ANVIL_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pg), PORT: String(gw),
      IDENTITY_URL: `http://127.0.0.1:${svc[0]}`, REGISTRY_URL: `http://127.0.0.1:${svc[1]}`, PROJECT_TRANSFER_URL: `http://127.0.0.1:${svc[2]}`,
      WORK_ITEMS_URL: `http://127.0.0.1:${svc[3]}`, PIPELINES_URL: `http://127.0.0.1:${svc[4]}`, ALERTING_URL: `http://127.0.0.1:${svc[5]}`,
    };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('brings up the fleet, prints URL and token, keeps data (and stored files) across restarts, stops cleanly on Ctrl-C and on SIGTERM', async () => {
    const first = await start(env);
    const admin = client(first.url, first.token);
    expect((await admin.get('/user')).body).toMatchObject({ username: 'root' });
    const created = await admin.post('/users', { username: 'dave', name: 'Dave', email: 'dave@example.com', password: 'Sup3r-secret-pw!' });
    expect(created.status).toBe(201);
    // a Conan file through the gateway (which stores and sends the bytes itself) into the local files
    const project = await admin.post('/projects', { name: 'pkgs', path: 'pkgs', visibility: 'private' });
    expect(project.status).toBe(201);
    const fileUrl = `${first.url}/api/v4/projects/${project.body.id}/packages/conan/v2/conans/hello/1.0/root+pkgs/stable/revisions/d41d8cd98f00b204e9800998ecf8427e/files/conan_sources.tgz`;
    const bytes = Buffer.alloc(2_500_000);
    for (let i = 0; i < bytes.length; i += 997) bytes[i] = i & 0xff;
    const put = await fetch(fileUrl, { method: 'PUT', headers: conanAuth(first.token), body: bytes });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { size: number }).size).toBe(bytes.length);
    const got = await fetch(fileUrl, { headers: conanAuth(first.token) });
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await stop(first)).toBe(0);

    const second = await start(env);
    expect(second.token).toBe(first.token);
    const again = await client(second.url, second.token).get('/users?username=dave');
    expect(again.status).toBe(200);
    expect(again.body).toEqual([expect.objectContaining({ username: 'dave' })]);
    const projects = await client(second.url, second.token).get('/projects?search=pkgs');
    const keptUrl = `${second.url}/api/v4/projects/${projects.body[0].id}/packages/conan/v2/conans/hello/1.0/root+pkgs/stable/revisions/d41d8cd98f00b204e9800998ecf8427e/files/conan_sources.tgz`;
    const kept = await fetch(keptUrl, { headers: conanAuth(second.token) });
    expect(kept.status).toBe(200);
    expect(Number(kept.headers.get('content-length'))).toBe(2_500_000);
    expect(Buffer.from(await kept.arrayBuffer()).length).toBe(2_500_000);
    // a service manager's stop: exit 0 too, not the 143 of the embedded Postgres's own signal handler
    expect(await stop(second, 'SIGTERM')).toBe(0);
  }, 180_000);
});
