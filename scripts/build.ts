/**
 * Compiles the fleet for production: `npm run build [-- <outdir>]` (default `dist/`).
 *
 * One CommonJS bundle per process (`gateway.js`, `<service>.js` for each `services/<name>/src/main.ts`),
 * each with its own code, the `@anvil/*` libs and the service's migrations (a list its definition
 * imports) compiled in; third-party packages stay `require`s, loaded from `node_modules` at run time.
 * Beside them: `md5-worker-thread.js`, which `libs/storage` starts as a worker thread from the
 * directory of the bundle that uses it, `ensure-bucket.js` (docker-compose's bucket job) and `provision.js` (the database logins' job). Each
 * output has a source map (`node --enable-source-maps` maps stack traces through it).
 */
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';

/** The workspace root: entry points are relative to it. */
export const ROOT = path.resolve(__dirname, '..');

/**
 * Leaves every package but the workspace's own (`@anvil/*`, TypeScript sources) to `require` at run
 * time, so a native or lazily loaded dependency is loaded as Node would load it unbundled.
 */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@anvil/') || path.isAbsolute(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/** The options every output is built with (Node 20, the oldest line `engines` admits). */
export const BUILD_OPTIONS: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  // the names classes and functions have in the source, which errors and logs show
  keepNames: true,
  plugins: [thirdPartyExternal],
  logLevel: 'warning',
  metafile: true,
};

/** What goes into the output directory: output name (without `.js`) → entry file, relative to the root. */
export function entryPoints(): Record<string, string> {
  const entries: Record<string, string> = { gateway: 'gateway/src/main.ts' };
  for (const name of fs.readdirSync(path.join(ROOT, 'services')).sort()) {
    const main = path.join('services', name, 'src', 'main.ts');
    if (fs.existsSync(path.join(ROOT, main))) entries[name] = main;
  }
  entries['md5-worker-thread'] = 'libs/storage/src/md5-worker-thread.ts';
  entries['ensure-bucket'] = 'deploy/scripts/ensure-bucket.ts';
  entries.provision = 'deploy/scripts/provision.ts';
  return entries;
}

/** The packages a build's outputs `require` (built-in modules left out). */
export function externalPackages(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const i of output.imports) {
      if (!i.external || i.path.startsWith('node:')) continue;
      const parts = i.path.split('/');
      names.add(i.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return [...names].filter((n) => !isBuiltin(n)).sort();
}

/** Builds every entry point into `outdir` (emptied first); resolves with the outputs and the packages they need. */
export async function buildFleet(outdir = path.join(ROOT, 'dist')): Promise<{ outputs: string[]; externals: string[] }> {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({ ...BUILD_OPTIONS, entryPoints: entryPoints(), outdir });
  const outputs = Object.keys(result.metafile!.outputs).map((f) => path.resolve(ROOT, f));
  return { outputs, externals: externalPackages(result.metafile!) };
}

if (require.main === module) {
  const outdir = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
  buildFleet(outdir).then(
    ({ outputs }) => process.stdout.write(`built ${outputs.filter((f) => f.endsWith('.js')).length} files into ${path.relative(process.cwd(), outdir) || '.'}\n`),
    (e: unknown) => {
      process.stderr.write(`build failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
