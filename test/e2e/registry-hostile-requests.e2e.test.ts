import http from 'node:http';
import { pickWith as pick, seededRandom } from '@anvil/testing';
import { basic, registryJwt, startMiniFleet, userWithProject, type MiniFleet } from './registry-fleet';
import { RREV } from '../../services/registry/test/helpers';

/**
 * Every registry route through the real gateway, with requests a hostile or broken client sends:
 * malformed path segments (encoded slashes and dots, NUL, over-long, non-ASCII), wrong methods,
 * broken credentials, malformed JSON and bodies. Generated from a fixed seed, so a failure repeats.
 * Each answer must be GitLab's kind of answer — a 2xx/3xx/4xx, never a 5xx, never a hang — and
 * afterwards a file of another user's project must still be there, byte for byte.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? 20261124);
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 1500);

let f: MiniFleet;
let fuzzer: Awaited<ReturnType<typeof userWithProject>>;
let other: Awaited<ReturnType<typeof userWithProject>>;
let jwt: string;
let otherJwt: string;
const SENTINEL = Buffer.from('sentinel: must survive every hostile request\n');
let sentinelPath: string;

beforeAll(async () => {
  f = await startMiniFleet();
  fuzzer = await userWithProject(f, 'fuzzer', 'fuzz', 'public');
  other = await userWithProject(f, 'bystander', 'kept');
  jwt = await registryJwt(f, fuzzer.projectId, 'fuzzer', fuzzer.token);
  otherJwt = await registryJwt(f, other.projectId, 'bystander', other.token);
  sentinelPath = `/api/v4/projects/${other.projectId}/packages/conan/v2/conans/kept/1.0/${other.fullPath.replace('/', '+')}/stable/revisions/${RREV}/files/conanfile.py`;
  const put = await send('PUT', sentinelPath, { Authorization: `Bearer ${otherJwt}` }, SENTINEL);
  expect(put.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

interface Answer {
  status: number;
  body: string;
}

/** One request on a fresh connection; the path is sent as given (no normalisation). */
function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${f.url}${path.startsWith('/') ? '' : '/'}`, { method, path, headers: { ...headers, ...(body ? { 'Content-Length': String(body.length) } : {}) }, agent: false, timeout: 10_000 }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in 10 s: ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

const SEGMENTS = [
  'pkg', 'zlib', '1.0', '_', 'stable', 'fuzz+fuzz', '0', RREV, 'a'.repeat(300), '%2F', '..', '%2e%2e', '%00', '%FF', '%', '%zz',
  '%C3%A9', '%E2%80%AE', 'x%2F..%2F..%2Fetc', '*', 'a%20b', "a'b", 'a"b', '<script>', '-1', '99999999999999999999999', '1e9', 'null', 'undefined',
  '__proto__', 'constructor', 'conaninfo.txt', 'conanfile.py', 'conan_package.tgz', '.', 'a.b', 'A'.repeat(60), '0'.repeat(40), 'f'.repeat(32),
] as const;

function segment(r: () => number): string {
  return r() < 0.5 ? pick(r, ['pkg', '1.0', '_', 'stable', RREV, 'conanfile.py', '0']) : pick(r, SEGMENTS);
}

/** A route of the spec, with each parameter either plausible or hostile. */
function route(r: () => number): string {
  const s = () => segment(r);
  const project = r() < 0.5 ? String(fuzzer.projectId) : pick(r, [String(fuzzer.projectId), String(other.projectId), '0', '-1', 'abc', '99999999999999999999', encodeURIComponent(fuzzer.fullPath), '%2F', '1.5']);
  const ref = r() < 0.3 ? pick(r, ['pkg/1.0/_/_', 'pkg/1.0/fuzzer+fuzz/stable']) : `${s()}/${s()}/${pick(r, ['_', 'fuzzer+fuzz', 'bystander+kept', s()])}/${pick(r, ['_', 'stable', s()])}`;
  const v2 = `/api/v4/projects/${project}/packages/conan/v2`;
  const v1 = pick(r, ['/api/v4/packages/conan/v1', `/api/v4/projects/${project}/packages/conan/v1`]);
  const rr = `${v2}/conans/${ref}/revisions/${s()}`;
  const pr = `${rr}/packages/${s()}`;
  return pick(r, [
    `${v2}/users/authenticate`, `${v2}/users/check_credentials`, `/api/v4/packages/conan/v2/users/authenticate`,
    `${v2}/conans/search?q=${s()}`, `${v2}/conans/search?q=${'*'.repeat(Math.floor(r() * 10))}${s()}`, `${v2}/conans/search`,
    `${v2}/conans/${ref}/latest`, `${v2}/conans/${ref}/revisions`, rr, `${rr}/files`, `${rr}/files/${s()}`,
    `${pr}/revisions`, `${pr}/latest`, `${pr}/revisions/${s()}`, `${pr}/revisions/${s()}/files/${s()}`,
    `${v2}/conans/${ref}/search`, `${rr}/search`,
    `${v1}/ping`, `${v1}/users/authenticate`, `${v1}/users/check_credentials`, `${v1}/conans/search?q=${s()}`,
    `${v1}/conans/${ref}`, `${v1}/conans/${ref}/packages/${s()}`, `${v1}/conans/${ref}/digest`, `${v1}/conans/${ref}/packages/${s()}/digest`,
    `${v1}/conans/${ref}/download_urls`, `${v1}/conans/${ref}/packages/${s()}/download_urls`,
    `${v1}/conans/${ref}/upload_urls`, `${v1}/conans/${ref}/packages/${s()}/upload_urls`,
    `${v1}/files/${ref}/${s()}/export/${s()}`, `${v1}/files/${ref}/${s()}/package/${s()}/${s()}/${s()}`,
  ]);
}

function credentials(r: () => number): Record<string, string> {
  if (r() < 0.3) return { Authorization: `Bearer ${jwt}` };
  return pick(r, [
    {},
    { Authorization: `Bearer ${jwt}` },
    { Authorization: `Bearer ${jwt.slice(0, -3)}abc` },
    { Authorization: 'Bearer ' },
    { Authorization: 'Bearer a.b.c' },
    { Authorization: `Bearer ${'x'.repeat(5000)}` },
    basic('fuzzer', fuzzer.token),
    basic('fuzzer', 'wrong'),
    basic('', ''),
    { Authorization: 'Basic !!!not-base64' },
    { Authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
    { Authorization: 'Negotiate abc' },
    { 'PRIVATE-TOKEN': fuzzer.token },
    { 'PRIVATE-TOKEN': 'glpat-nope' },
    { 'JOB-TOKEN': 'nope' },
  ]);
}

function body(r: () => number): { headers: Record<string, string>; data?: Buffer } {
  return pick<{ headers: Record<string, string>; data?: Buffer }>(r, [
    { headers: {} },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from('{"conanfile.py": 12, "conanmanifest.txt": 40}') },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from('{"conanfile.py": "twelve"}') },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from('{"broken": ') },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from('[1, 2, 3]') },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from('null') },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from('{"../../x": 1, "__proto__": {"a": 1}}') },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from('{"conanfile.py\\u0000": 1, "conan_export.tgz": "\\ud800"}') },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from(`${'['.repeat(3000)}${']'.repeat(3000)}`) },
    { headers: { 'Content-Type': 'application/json' }, data: Buffer.from(`{${Array.from({ length: 2000 }, (_, i) => `"f${i}": ${i}`).join(',')}}`) },
    { headers: { 'Content-Type': 'text/plain' }, data: Buffer.from('[settings]\nos=Linux\n[options]\n[requires]\n') },
    { headers: {}, data: Buffer.alloc(0) },
    { headers: {}, data: Buffer.from('\u0000\u0001\u0002binary') },
    { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: Buffer.from('a=1&a[b]=2&%zz') },
  ]);
}

test(`${REQUESTS} hostile requests to every registry route: never a 5xx, never a hang, nothing of another project lost`, async () => {
  const r = seededRandom(SEED);
  const failures: string[] = [];
  const seen = new Map<number, number>();
  for (let i = 0; i < REQUESTS; i++) {
    const method = pick(r, ['GET', 'GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS']);
    const path = route(r);
    const auth = credentials(r);
    const b = method === 'GET' || method === 'HEAD' ? { headers: {} } : body(r);
    const a = await send(method, path, { ...auth, ...b.headers }, b.data).catch((e: Error) => ({ status: 0, body: e.message }));
    seen.set(a.status, (seen.get(a.status) ?? 0) + 1);
    if (a.status === 0 || a.status >= 500) failures.push(`#${i} ${method} ${path} [${Object.keys(auth).join(',')} ${b.data ? b.data.length : '-'}] → ${a.status} ${a.body.slice(0, 200)}`);
  }
  if (process.env.HOSTILE_VERBOSE) console.log(Object.fromEntries(seen));
  expect(failures).toEqual([]);
  // the run exercised more than refusals: some requests were served
  expect(seen.get(200) ?? 0).toBeGreaterThan(0);
  const kept = await fetch(`${f.url}${sentinelPath}`, { headers: { Authorization: `Bearer ${otherJwt}` } });
  expect(kept.status).toBe(200);
  expect(Buffer.from(await kept.arrayBuffer())).toEqual(SENTINEL);
}, 240_000);

test('at instance level a username without `+` names no project, even when it is a user’s namespace: 404 Project Not Found', async () => {
  for (const username of ['fuzzer', 'bystander', 'nobody-at-all']) {
    const auths: Record<string, string>[] = [{ Authorization: `Bearer ${jwt}` }, {}];
    for (const auth of auths) {
      const a = await send('GET', `/api/v4/packages/conan/v1/conans/kept/1.0/${username}/stable`, auth);
      expect([username, a.status, JSON.parse(a.body)]).toEqual([username, 404, { message: '404 Project Not Found' }]);
    }
  }
  // the same package, named by its project's path, is there for its owner
  const named = await send('GET', `/api/v4/packages/conan/v1/conans/kept/1.0/${other.fullPath.replace('/', '+')}/stable`, { Authorization: `Bearer ${otherJwt}` });
  expect(named.status).toBe(200);
  expect(Object.keys(JSON.parse(named.body))).toEqual(['conanfile.py']);
});
