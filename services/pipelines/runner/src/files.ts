import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** A glob (`*`, `**`, `?`) as a regular expression over `/`-separated relative paths. */
export function globRegExp(pattern: string): RegExp {
  let re = '';
  const p = pattern.replace(/^\.\//, '');
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*' && p[i + 1] === '*') {
      re += p[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += p[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function* walk(root: string, rel = ''): AsyncGenerator<string> {
  for (const e of await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => [])) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) yield* walk(root, p);
    else if (e.isFile()) yield p;
  }
}

/** The files under `root` that match any of `patterns`, in path order, with their contents. */
export async function matchingFiles(root: string, patterns: string[]): Promise<{ path: string; data: Buffer }[]> {
  const res = patterns.map(globRegExp);
  const out: string[] = [];
  for await (const p of walk(root)) if (res.some((r) => r.test(p))) out.push(p);
  out.sort();
  return Promise.all(out.map(async (p) => ({ path: p, data: await readFile(path.join(root, p)) })));
}
