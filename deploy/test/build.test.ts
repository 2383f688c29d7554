import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { generateContextKeys } from '@anvil/auth';
import { dropSchema, loginUrl } from '@anvil/db';
import { PROCESS_ENV, withProcessEnv } from '@anvil/runtime';
import { freePort, testDatabaseUrl, uniqueName } from '@anvil/testing';
import { BUILD_OPTIONS, buildFleet, ROOT } from '../../scripts/build';
import { PROCESSES } from './manifests';

/** The workspace packages whose dependencies the image installs for the built fleet (all but the test lib). */
const RUNTIME_PACKAGES = ['.', 'gateway', ...['services', 'libs'].flatMap((d) => fs.readdirSync(path.join(ROOT, d)).map((n) => `${d}/${n}`))].filter(
  (p) => p !== 'libs/testing' && fs.existsSync(path.join(ROOT, p, 'package.json')),
);

/**
 * A flat node_modules in `dir`, as pnpm's hoisted layout gives the image: one link per package the
 * runtime packages have installed (root's own left out: the built fleet must not need tsx).
 */
function linkFlatNodeModules(dir: string): void {
  for (const pkg of RUNTIME_PACKAGES.filter((p) => p !== '.')) {
    const from = path.join(ROOT, pkg, 'node_modules');
    if (!fs.existsSync(from)) continue;
    const names = fs.readdirSync(from).flatMap((n) => (n.startsWith('@') ? fs.readdirSync(path.join(from, n)).map((s) => `${n}/${s}`) : [n]));
    for (const name of names.filter((n) => !n.startsWith('.') && !n.startsWith('@anvil/'))) {
      const link = path.join(dir, name);
      if (fs.existsSync(link)) continue;
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(fs.realpathSync(path.join(from, name)), link, 'dir');
    }
  }
}

/** `node <args>` in `cwd` with only `env` (and PATH): no hooks, loaders or options of this process. */
function spawnNode(cwd: string, args: string[], env: Record<string, string | undefined>): { proc: ChildProcess; output: () => string } {
  const proc = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => (out = (out + b.toString()).slice(-10_000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  return { proc, output: () => out };
}

async function waitReady(url: string, p: { proc: ChildProcess; output: () => string }, probe = '/-/readiness'): Promise<void> {
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    if (p.proc.exitCode !== null) throw new Error(`exited (${p.proc.exitCode}) before ready: ${url}\n${p.output()}`);
    const ok = await fetch(`${url}${probe}`).then((r) => r.ok, () => false);
    if (ok) return;
  }
  throw new Error(`not ready: ${url}\n${p.output()}`);
}

let dir: string;
let externals: string[];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-build-'));
  linkFlatNodeModules(path.join(dir, 'node_modules'));
  ({ externals } = await buildFleet(path.join(dir, 'dist')));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run build (scripts/build.ts)', () => {
  it('builds a bundle per process, the MD5 worker, the bucket job and the provisioning job, each with a source map', () => {
    const names = [...PROCESSES, 'md5-worker-thread', 'ensure-bucket', 'provision'];
    expect(fs.readdirSync(path.join(dir, 'dist')).sort()).toEqual(names.flatMap((n) => [`${n}.js`, `${n}.js.map`]).sort());
  });

  it('leaves to node_modules only packages the runtime packages declare as dependencies', () => {
    const declared = new Set(
      RUNTIME_PACKAGES.flatMap((p) => {
        const json = JSON.parse(fs.readFileSync(path.join(ROOT, p, 'package.json'), 'utf8'));
        return [...Object.keys(json.dependencies ?? {}), ...Object.keys(json.optionalDependencies ?? {})];
      }),
    );
    expect(externals).toEqual(expect.arrayContaining(['express', 'knex']));
    expect(externals.filter((e) => !declared.has(e))).toEqual([]);
  });

  it('the built provisioning job creates the registry login; the built registry and gateway run with plain node and answer, the gateway reaching the registry', async () => {
    const keys = generateContextKeys();
    const schema = uniqueName('build');
    const login = loginUrl(testDatabaseUrl(), schema, randomBytes(16).toString('hex'));
    const job = spawnNode(dir, ['dist/provision.js'], { DATABASE_ADMIN_URL: testDatabaseUrl(), REGISTRY_DATABASE_URL: login });
    expect([await new Promise((resolve) => job.proc.once('exit', resolve)), job.output()]).toEqual([0, `provisioned the database logins: ${schema}\n`]);
    const [registryPort, gatewayPort] = [await freePort(), await freePort()];
    const shared = { HOST: '127.0.0.1', INTERNAL_API_TOKEN: 'build-test-internal-token', CONAN_JWT_SECRET: 'build-test-conan', STORAGE_DIR: path.join(dir, 'files'), LOG_LEVEL: 'warn' };
    const registry = spawnNode(dir, [...PROCESS_ENV.service.nodeArgs, 'dist/registry.js'], withProcessEnv('service', {
      ...shared, PORT: String(registryPort), DATABASE_URL: login, DB_SCHEMA: schema, AMQP_URL: 'memory://', GATEWAY_PUBLIC_KEY: keys.publicKey,
    }));
    const gateway = spawnNode(dir, [...PROCESS_ENV.gateway.nodeArgs, 'dist/gateway.js'], withProcessEnv('gateway', {
      ...shared, PORT: String(gatewayPort), GATEWAY_PRIVATE_KEY: keys.privateKey, REGISTRY_URL: `http://127.0.0.1:${registryPort}`,
    }));
    try {
      // no identity here: the gateway is alive, not ready
      await Promise.all([waitReady(`http://127.0.0.1:${registryPort}`, registry), waitReady(`http://127.0.0.1:${gatewayPort}`, gateway, '/-/liveness')]);
      for (const port of [registryPort, gatewayPort]) expect((await fetch(`http://127.0.0.1:${port}/-/health`)).status).toBe(200);
      const ping = await fetch(`http://127.0.0.1:${gatewayPort}/api/v4/packages/conan/v1/ping`);
      expect([ping.status, ping.headers.get('x-conan-server-capabilities')]).toEqual([200, expect.any(String)]);
    } finally {
      for (const p of [registry, gateway]) p.proc.kill('SIGKILL');
      await dropSchema({ url: testDatabaseUrl(), schema });
    }
  });

  it('a bundle in dist/ hashes on the built MD5 worker beside it, run as the gateway (which hashes uploads) runs', async () => {
    const contents = [
      "import { OffloadedMd5 } from './libs/storage/src/md5-worker';",
      'async function main() {',
      '  const m = new OffloadedMd5();',
      '  for (let i = 0; i < 12; i++) await m.update(Buffer.alloc(256 * 1024, i));',
      '  process.stdout.write(await m.digest());',
      '}',
      'void main();',
    ].join('\n');
    await build({ ...BUILD_OPTIONS, stdin: { contents, resolveDir: ROOT, sourcefile: 'md5-check.ts', loader: 'ts' }, outfile: path.join(dir, 'dist', 'md5-check.js') });
    const expected = createHash('md5');
    for (let i = 0; i < 12; i++) expected.update(Buffer.alloc(256 * 1024, i));
    const out = execFileSync(process.execPath, [...PROCESS_ENV.gateway.nodeArgs, 'dist/md5-check.js'], { cwd: dir, env: { PATH: process.env.PATH }, encoding: 'utf8', timeout: 10_000 });
    expect(out).toBe(expected.digest('hex'));
  });
});
