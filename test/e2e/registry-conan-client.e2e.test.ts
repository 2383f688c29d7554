/**
 * The real Conan clients against the real gateway, identity and registry (in this process, over HTTP).
 * Runs only when a Conan checkout is named: CONAN2_SRC (a 2.x tag) and/or CONAN1_SRC (1.65.0) of
 * conan-io/conan, run as `python3 -m conans.conan` with Debian's python3 packages (CONAN_PYTHON,
 * default /usr/bin/python3). Without them this file holds one test that records their absence.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectStoragePrefix } from '../../services/registry/src/packages/storage-keys';
import { startMiniFleet, userWithProject, type MiniFleet } from './registry-fleet';

const run = promisify(execFile);
const CONAN2 = process.env.CONAN2_SRC;
const CONAN1 = process.env.CONAN1_SRC;
const PYTHON = process.env.CONAN_PYTHON ?? '/usr/bin/python3';

// jest.config.js leaves this file out of the run unless CONAN2_SRC or CONAN1_SRC names a checkout.

/** A Conan CLI bound to one checkout and one home directory. */
function conanCli(src: string, home: string, extraPath: string[] = []) {
  const env = { ...process.env, PYTHONPATH: [src, ...extraPath].join(':'), CONAN_HOME: home, CONAN_USER_HOME: home, CONAN_NON_INTERACTIVE: '1' };
  return async (args: string[], cwd = home): Promise<string> => {
    try {
      const t0 = Date.now();
      const r = await run(PYTHON, ['-m', 'conans.conan', ...args], { env, cwd, maxBuffer: 16 << 20, timeout: 120_000 });
      if (process.env.CONAN_E2E_DEBUG) process.stderr.write(`conan ${args.join(' ')} (${Date.now() - t0} ms)\n${r.stdout}\n${r.stderr}\n`);
      return `${r.stdout}\n${r.stderr}`;
    } catch (e) {
      const x = e as { stdout?: string; stderr?: string; message: string };
      throw new Error(`conan ${args.join(' ')} failed: ${x.message}\n${x.stdout ?? ''}\n${x.stderr ?? ''}`);
    }
  };
}

function writeRecipe(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

const RECIPE2 = `from conan import ConanFile
from conan.tools.files import copy

class Hello(ConanFile):
    name = "hello"
    version = "1.0"
    package_type = "header-library"
    exports_sources = "include/*"
    no_copy_source = True

    def package(self):
        copy(self, "*.h", self.source_folder, self.package_folder)

    def package_info(self):
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
`;

/** A package whose archive is ~400 KB (random hex): larger than the registry hashes inline, so MD5 goes to the worker. */
const raceRecipe = (name: string) => `from conan import ConanFile
from conan.tools.files import save
import os

class Race(ConanFile):
    name = "${name}"
    version = "1.0"

    def package(self):
        save(self, os.path.join(self.package_folder, "data.bin"), os.urandom(400000).hex())
`;

if (CONAN2) describe('Conan 2 client (v2 protocol, project-level remote)', () => {
  let fleet: MiniFleet;
  let home: string;
  let conan: ReturnType<typeof conanCli>;
  let who: Awaited<ReturnType<typeof userWithProject>>;
  /** The homes of the concurrent clients (copies of `home`). */
  const clientHomes: string[] = [];
  const work = () => path.join(home, 'src');
  jest.setTimeout(300_000);

  beforeAll(async () => {
    fleet = await startMiniFleet();
    who = await userWithProject(fleet, 'conan2user', 'conan2-pkgs');
    home = mkdtempSync(path.join(tmpdir(), 'anvil-conan2-'));
    conan = conanCli(CONAN2!, home);
    writeRecipe(home, { 'profiles/default': '[settings]\nos=Linux\narch=x86_64\nbuild_type=Release\n' });
    writeRecipe(work(), { 'conanfile.py': RECIPE2, 'include/hello.h': '#define HELLO 1\n' });
  });
  afterAll(async () => {
    await fleet?.stop();
    for (const h of [home, ...clientHomes]) if (h) rmSync(h, { recursive: true, force: true });
  });

  it('adds the project remote, logs in with a personal access token, creates and uploads', async () => {
    await conan(['remote', 'add', 'anvil', `${fleet.url}/api/v4/projects/${who.projectId}/packages/conan`]);
    await conan(['remote', 'login', 'anvil', who.user.username, '-p', who.token]);
    await conan(['create', '.'], work());
    const out = await conan(['upload', 'hello/1.0', '-r', 'anvil', '-c']);
    expect(out).toMatch(/Uploading recipe 'hello\/1.0#[0-9a-f]{32}'/);
  });

  it('finds it with search and lists recipe and package revisions', async () => {
    expect(await conan(['search', 'hel*', '-r', 'anvil'])).toContain('hello/1.0');
    const recipes = await conan(['list', 'hello/1.0#*', '-r', 'anvil', '--format=json']);
    const json = JSON.parse(recipes.slice(recipes.indexOf('{'), recipes.lastIndexOf('}') + 1));
    const revisions = Object.keys(json.anvil['hello/1.0'].revisions);
    expect(revisions).toHaveLength(1);
    const pkgs = await conan(['list', `hello/1.0#${revisions[0]}:*#*`, '-r', 'anvil', '--format=json']);
    expect(pkgs).toMatch(/"packages"/);
  });

  it('installs from the remote after the local cache is wiped', async () => {
    await conan(['remove', '*', '-c']);
    const out = await conan(['install', '--requires', 'hello/1.0', '-r', 'anvil']);
    expect(out).toMatch(/hello\/1.0#[0-9a-f]{32} - Downloaded \(anvil\)/);
  });

  it('makes a second revision the latest, then removes the first on the remote', async () => {
    const before = (await fleet.registry.deps.db('conan_recipe_revisions').select('revision')).length;
    writeRecipe(work(), { 'include/hello.h': '#define HELLO 2\n' });
    await conan(['create', '.'], work());
    await conan(['upload', 'hello/1.0', '-r', 'anvil', '-c']);
    const revs = (await fleet.registry.deps.db('conan_recipe_revisions').select('revision').orderBy('id')).map((r: { revision: string }) => r.revision);
    expect(revs.length).toBe(before + 1);
    const latest = await conan(['list', 'hello/1.0#latest', '-r', 'anvil', '--format=json']);
    expect(latest).toContain(revs[revs.length - 1]);
    await conan(['remove', `hello/1.0#${revs[0]}`, '-r', 'anvil', '-c']);
    const all = await conan(['list', 'hello/1.0#*', '-r', 'anvil', '--format=json']);
    expect(all).not.toContain(revs[0]);
    expect(all).toContain(revs[revs.length - 1]);
  });

  it('takes the same packages from four clients at once, each uploading in parallel and forced: one object per file record, and installs pass the integrity check', async () => {
    const names = ['race-a', 'race-b', 'race-c'];
    for (const n of names) {
      writeRecipe(path.join(home, 'race', n), { 'conanfile.py': raceRecipe(n) });
      await conan(['create', '.'], path.join(home, 'race', n));
    }
    for (let i = 1; i <= 4; i++) {
      // the same cache and the same login, as four CI jobs holding the same build would have
      const h = `${home}-client${i}`;
      clientHomes.push(h);
      cpSync(home, h, { recursive: true });
    }
    const outs = await Promise.all(clientHomes.map((h) => conanCli(CONAN2!, h)(['upload', 'race-*', '-r', 'anvil', '-c', '--force', '-cc', 'core.upload:parallel=4'])));
    // each client uploaded every recipe and every package itself
    for (const out of outs) expect(out.match(/\(Uploaded\)/g)).toHaveLength(2 * names.length);
    const recorded = await fleet.registry.deps.db('conan_files').where({ project_id: who.projectId }).pluck('storage_key');
    const stored: string[] = [];
    for await (const o of fleet.registry.deps.storage.list(projectStoragePrefix(who.projectId))) stored.push(o.key);
    expect(stored.sort()).toEqual([...recorded].sort());
    await conan(['remove', 'race-*', '-c']);
    for (const n of names) expect(await conan(['install', '--requires', `${n}/1.0`, '-r', 'anvil'])).toMatch(new RegExp(`${n}/1.0#[0-9a-f]{32} - Downloaded \\(anvil\\)`));
    expect(await conan(['cache', 'check-integrity', 'race-*:*'])).toContain('Integrity check: ok');
  });
});

const RECIPE1 = `from conans import ConanFile

class Hello(ConanFile):
    name = "hello1"
    version = "1.0"
    exports_sources = "include/*"
    no_copy_source = True

    def package(self):
        self.copy("*.h")

    def package_id(self):
        self.info.header_only()
`;

if (CONAN1) describe('Conan 1 client (v1 protocol)', () => {
  let fleet: MiniFleet;
  let home: string;
  let conan: ReturnType<typeof conanCli>;
  let who: Awaited<ReturnType<typeof userWithProject>>;
  jest.setTimeout(300_000);

  beforeAll(async () => {
    fleet = await startMiniFleet();
    who = await userWithProject(fleet, 'conan1user', 'conan1-pkgs');
    home = mkdtempSync(path.join(tmpdir(), 'anvil-conan1-'));
    const shim = semverShim(home);
    conan = conanCli(CONAN1!, home, shim ? [shim] : []);
    writeRecipe(path.join(home, '.conan'), { 'profiles/default': '[settings]\nos=Linux\narch=x86_64\nbuild_type=Release\n[options]\n[build_requires]\n[env]\n' });
    writeRecipe(path.join(home, 'src'), { 'conanfile.py': RECIPE1, 'include/hello1.h': '#define HELLO1 1\n' });
  });
  afterAll(async () => {
    await fleet?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it.each([
    ['instance', () => `${fleet.url}/api/v4/packages/conan`],
    ['project', () => `${fleet.url}/api/v4/projects/${who.projectId}/packages/conan`],
  ])('uploads, searches, installs, re-uploads and removes at %s level', async (level, url) => {
    const remote = `anvil-${level}`;
    const ref = `hello1/1.0@${who.fullPath.replace(/\//g, '+')}/stable`;
    await conan(['remote', 'add', remote, url()]);
    await conan(['user', who.user.username, '-r', remote, '-p', who.token]);
    await conan(['create', '.', ref], path.join(home, 'src'));
    await conan(['upload', ref, '-r', remote, '--all', '-c']);
    expect(await conan(['search', 'hello1*', '-r', remote])).toContain(ref);
    expect(await conan(['search', ref, '-r', remote])).toMatch(/Package_ID: [0-9a-f]{40}/);
    await conan(['remove', 'hello1*', '-f']);
    expect(await conan(['install', ref, '-r', remote])).toMatch(/Downloaded package/);
    writeRecipe(path.join(home, 'src'), { 'include/hello1.h': `#define HELLO1 ${level}\n` });
    await conan(['create', '.', ref], path.join(home, 'src'));
    await conan(['upload', ref, '-r', remote, '--all', '-c']);
    const files = await fleet.registry.deps.db('conan_files as f').join('conan_packages as p', 'p.id', 'f.package_id').where('p.project_id', who.projectId).count<{ n: string }[]>('* as n');
    expect(Number(files[0].n)).toBeGreaterThanOrEqual(5);
    await conan(['remove', ref, '-r', remote, '-f']);
    expect(await conan(['search', 'hello1*', '-r', remote])).not.toContain(ref);
  });
});

/**
 * Conan 1 imports the `semver` module of the node-semver package at start-up (only version ranges use
 * it). When the interpreter has no such module, a stand-in that refuses ranges is put on PYTHONPATH.
 */
function semverShim(home: string): string | null {
  try {
    require('node:child_process').execFileSync(PYTHON, ['-c', 'from semver import SemVer, Range, max_satisfying, satisfies'], { stdio: 'ignore' });
    return null;
  } catch {
    const dir = path.join(home, 'semver-shim');
    writeRecipe(dir, {
      'semver.py': [
        '"""Stand-in for node-semver: version ranges are not used by this test."""',
        'class SemVer:',
        '    def __init__(self, v, loose=False):',
        '        raise ValueError("version ranges are not available in this test")',
        'class Range(SemVer):',
        '    pass',
        'def max_satisfying(*a, **k):',
        '    raise ValueError("version ranges are not available in this test")',
        'def satisfies(*a, **k):',
        '    return True',
        '',
      ].join('\n'),
    });
    return dir;
  }
}
