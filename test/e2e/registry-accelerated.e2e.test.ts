import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { AccessLevel, UPLOADS_PREFIX } from '@anvil/auth';
import { PREAUTHORIZE_ABOVE } from '@anvil/gateway';
import { basic, registryJwt, startMiniFleet, userWithProject, type MiniFleet } from './registry-fleet';
import { md5, PKG_ID, PREV, RREV, sha1, sha256 } from '../../services/registry/test/helpers';

/**
 * Accelerated transfers through the real gateway: the gateway stores upload bodies and sends stored
 * files itself (as GitLab Workhorse does); what a client sees must be exactly what the registry
 * answers when it streams the bytes itself.
 */
let f: MiniFleet;
let owner: Awaited<ReturnType<typeof userWithProject>>;
let jwt: string;
const LIMIT = 2 * PREAUTHORIZE_ABOVE;

beforeAll(async () => {
  f = await startMiniFleet({ CONAN_MAX_FILE_SIZE: String(LIMIT) });
  owner = await userWithProject(f, 'accel-owner', 'accel');
  jwt = await registryJwt(f, owner.projectId, 'accel-owner', owner.token);
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

const recipe = () => `/api/v4/projects/${owner.projectId}/packages/conan/v2/conans/accel/1.0/${owner.fullPath.replace('/', '+')}/stable`;
const recipeFile = (name: string) => `${recipe()}/revisions/${RREV}/files/${name}`;
const packageFile = (name: string) => `${recipe()}/revisions/${RREV}/packages/${PKG_ID}/revisions/${PREV}/files/${name}`;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Whether the server sent `100 Continue`. */
  continued: boolean;
}

/** A raw request through the gateway: body sent whole, in chunks (chunked encoding), or after 100-continue. */
function send(method: string, path: string, opts: { body?: Buffer; chunked?: boolean; expectContinue?: boolean; headers?: Record<string, string>; token?: string; agent?: http.Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${opts.token ?? jwt}`, ...opts.headers };
    if (opts.body && !opts.chunked) headers['Content-Length'] = String(opts.body.length);
    if (opts.expectContinue) headers.Expect = '100-continue';
    const req = http.request(`${f.url}${path}`, { method, headers, agent: opts.agent ?? false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), continued }));
    });
    let continued = false;
    req.on('error', reject);
    const write = () => {
      if (!opts.body) return req.end();
      if (!opts.chunked) return req.end(opts.body);
      for (let off = 0; off < opts.body.length; off += 100_000) req.write(opts.body.subarray(off, off + 100_000));
      req.end();
    };
    if (opts.expectContinue) {
      req.on('continue', () => {
        continued = true;
        write();
      });
      req.flushHeaders();
    } else write();
  });
}

/** A PUT declaring `declared` bytes that sends 500 KB of them, then goes away. */
function abandonUpload(path: string, declared: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const req = http.request(`${f.url}${path}`, { method: 'PUT', headers: { Authorization: `Bearer ${jwt}`, 'Content-Length': String(declared) }, agent: false });
    req.on('error', () => resolve());
    req.write(Buffer.alloc(500_000, 3), () => setTimeout(() => {
      req.destroy();
      resolve();
    }, 200));
  });
}

async function leftoverUploads(): Promise<string[]> {
  const out: string[] = [];
  for await (const o of f.registry.deps.storage.list(UPLOADS_PREFIX)) out.push(o.key);
  return out;
}

describe('accelerated uploads and downloads through the gateway', () => {
  it.each([
    ['in one trip (a small body: stored, then forwarded)', PREAUTHORIZE_ABOVE - 1000],
    ['pre-authorised (a larger body: authorised while it streams)', PREAUTHORIZE_ABOVE + 123],
  ])('stores the body with its digests, moves it into place and sends it back byte for byte, %s', async (_how, size) => {
    const data = randomBytes(size);
    const up = await send('PUT', recipeFile('conan_sources.tgz'), { body: data });
    expect(up.status).toBe(200);
    const record = JSON.parse(up.body.toString());
    expect(record).toMatchObject({ size: data.length, file_md5: md5(data), file_sha1: sha1(data), file_name: 'conan_sources.tgz', project_id: owner.projectId });
    const row = await f.registry.deps.db('conan_files').where({ id: record.id }).first();
    expect(row.file_sha256).toBe(sha256(data));
    const stored = await f.registry.deps.storage.read(row.storage_key);
    const parts: Buffer[] = [];
    for await (const c of stored!.body) parts.push(c as Buffer);
    expect(Buffer.concat(parts).equals(data)).toBe(true);
    expect(await leftoverUploads()).toEqual([]);

    const down = await send('GET', recipeFile('conan_sources.tgz'));
    expect(down.status).toBe(200);
    expect(down.body.equals(data)).toBe(true);
    expect(down.headers['content-length']).toBe(String(data.length));
    expect(down.headers['content-type']).toBe('application/octet-stream');
    expect(down.headers['content-disposition']).toBe(`attachment; filename="conan_sources.tgz"; filename*=UTF-8''conan_sources.tgz`);
    expect(down.headers['x-request-id']).toBeTruthy();
    expect(Object.keys(down.headers).filter((h) => h.startsWith('x-anvil-'))).toEqual([]);
    const head = await send('HEAD', recipeFile('conan_sources.tgz'));
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(data.length));
  });

  it('takes chunked bodies (what Conan sends), empty ones included, and replaces a file of the same name', async () => {
    const data = Buffer.from('print("hello")\n'.repeat(5000));
    expect((await send('PUT', recipeFile('conanfile.py'), { body: data, chunked: true })).status).toBe(200);
    const empty = await send('PUT', recipeFile('conanmanifest.txt'), { body: Buffer.alloc(0), chunked: true, headers: { 'Transfer-Encoding': 'chunked' } });
    expect(empty.status).toBe(200);
    expect(JSON.parse(empty.body.toString())).toMatchObject({ size: 0, file_md5: md5('') });
    const again = Buffer.from('print("second")\n');
    expect((await send('PUT', recipeFile('conanfile.py'), { body: again, chunked: true })).status).toBe(200);
    const down = await send('GET', recipeFile('conanfile.py'));
    expect(down.body.toString()).toBe(again.toString());
    expect((await send('GET', recipeFile('conanmanifest.txt'))).body.length).toBe(0);
    expect(await leftoverUploads()).toEqual([]);
  });

  it('parses an uploaded conaninfo.txt into the package reference metadata', async () => {
    const info = '[settings]\n    os=Linux\n    arch=x86_64\n[options]\n    shared=False\n[requires]\n[recipe_hash]\n    abc123\n';
    expect((await send('PUT', packageFile('conaninfo.txt'), { body: Buffer.from(info) })).status).toBe(200);
    const search = await send('GET', `${recipe()}/revisions/${RREV}/search`);
    expect(search.status).toBe(200);
    expect(JSON.parse(search.body.toString())[PKG_ID]).toMatchObject({ settings: { os: 'Linux', arch: 'x86_64' }, options: { shared: 'False' } });
  });

  it('refuses a member without upload rights before reading the body (no 100 Continue, nothing stored)', async () => {
    const reporter = await userWithProject(f, 'accel-reporter', 'reporter-own');
    await f.identity.as({ user: f.root, project: { id: owner.projectId, path_with_namespace: owner.fullPath, namespace_id: 0, group_id: null, visibility: 'private', access_level: AccessLevel.OWNER } })
      .post(`/api/v4/projects/${owner.projectId}/members`).send({ user_id: reporter.user.id, access_level: AccessLevel.REPORTER }).expect(201);
    const r = await send('PUT', recipeFile('conan_sources.tgz'), { body: randomBytes(200_000), expectContinue: true, headers: basic('accel-reporter', reporter.token), token: undefined });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body.toString())).toEqual({ message: '403 Forbidden' });
    expect(r.continued).toBe(false);
    expect(await leftoverUploads()).toEqual([]);
    // without Expect: a small body of known length is read whole and the refusal discards it (the
    // connection stays open); a larger or chunked one streams while the registry decides, and the
    // refusal stops it (the connection closes, the rest unread)
    const before = (await send('GET', recipeFile('conan_sources.tgz'))).body;
    for (const [size, chunked, connection] of [
      [1_500_000, false, 'keep-alive'],
      [PREAUTHORIZE_ABOVE + 1, false, 'close'],
      [1_500_000, true, 'close'],
    ] as const) {
      const agent = new http.Agent({ keepAlive: true });
      const streamed = await send('PUT', recipeFile('conan_sources.tgz'), { body: randomBytes(size), chunked, headers: basic('accel-reporter', reporter.token), agent });
      agent.destroy();
      expect(streamed.status).toBe(403);
      expect(JSON.parse(streamed.body.toString())).toEqual({ message: '403 Forbidden' });
      expect(streamed.headers.connection).toBe(connection);
    }
    for (let i = 0; i < 50 && (await leftoverUploads()).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await leftoverUploads()).toEqual([]);
    expect((await send('GET', recipeFile('conan_sources.tgz'))).body.equals(before)).toBe(true);
  });

  it('answers GitLab’s 400 for a body over the limit, declared or streamed, and keeps the stored file', async () => {
    const before = (await send('GET', recipeFile('conanfile.py'))).body;
    const declared = await send('PUT', recipeFile('conanfile.py'), { body: Buffer.alloc(LIMIT + 1, 1) });
    expect(declared.status).toBe(400);
    expect(JSON.parse(declared.body.toString())).toEqual({ message: '400 Bad request - File is too large' });
    const streamed = await send('PUT', recipeFile('conanfile.py'), { body: Buffer.alloc(LIMIT + 1, 2), chunked: true });
    expect(streamed.status).toBe(400);
    expect(JSON.parse(streamed.body.toString())).toEqual({ message: '400 Bad request - File is too large' });
    expect((await send('GET', recipeFile('conanfile.py'))).body.equals(before)).toBe(true);
    expect(await leftoverUploads()).toEqual([]);
  });

  it.each([
    ['stored before it is forwarded', 2_000_000],
    ['pre-authorised while it streams', PREAUTHORIZE_ABOVE + 1],
  ])('leaves nothing behind when the client goes away mid-upload (%s)', async (_how, declared) => {
    const path = packageFile('conan_package.tgz');
    await abandonUpload(path, declared);
    for (let i = 0; i < 50 && (await leftoverUploads()).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await leftoverUploads()).toEqual([]);
    const after = await send('GET', path);
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body.toString())).toEqual({ message: '404 Not found' });
  });

  it('makes no package for a first upload the client abandons (the package comes with its first file)', async () => {
    const fresh = recipe().replace('/accel/', '/abandoned/');
    await abandonUpload(`${fresh}/revisions/${RREV}/files/conan_sources.tgz`, PREAUTHORIZE_ABOVE + 1);
    for (let i = 0; i < 50 && (await leftoverUploads()).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await leftoverUploads()).toEqual([]);
    const revisions = await send('GET', `${fresh}/revisions`);
    expect(revisions.status).toBe(404);
    expect(JSON.parse(revisions.body.toString())).toEqual({ message: '404 Package Not Found' });
    expect(await f.registry.deps.db('conan_packages').where({ name: 'abandoned' })).toEqual([]);
  });

  it('proxies a registry PUT that is not a file upload as it is (no pre-authorisation, nothing stored)', async () => {
    const r = await send('PUT', `${recipe()}/revisions/${RREV}`, { body: Buffer.from('{"x":1}'), headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(404);
    expect(await leftoverUploads()).toEqual([]);
  });

  it('leaves one whole file when uploads to the same name race, and no other object behind', async () => {
    const bodies = Array.from({ length: 5 }, (_, i) => Buffer.alloc(700_000 + i * 1000, i + 1));
    const answers = await Promise.all(bodies.map((body) => send('PUT', packageFile('conan_package.tgz'), { body })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const got = (await send('GET', packageFile('conan_package.tgz'))).body;
    expect(bodies.some((b) => b.equals(got))).toBe(true);
    expect(await leftoverUploads()).toEqual([]);
    // every stored object of the project is some file's, and every file's object is there
    const row = await f.registry.deps.db('conan_files').where({ project_id: owner.projectId, file_name: 'conan_package.tgz' }).first();
    const prefix = row.storage_key.slice(0, row.storage_key.lastIndexOf('/') + 1);
    let stored: string[] = [];
    let recorded: string[] = [];
    for (let i = 0; i < 50; i++) {
      stored = [];
      for await (const o of f.registry.deps.storage.list(prefix)) stored.push(o.key);
      recorded = (await f.registry.deps.db('conan_files').where({ project_id: owner.projectId }).pluck('storage_key')).filter((k: string) => k.startsWith(prefix));
      if (stored.length === recorded.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(stored.sort()).toEqual(recorded.sort());
    expect(stored).toContain(row.storage_key);
  });

  it('answers Conan 1’s empty dedup probe without storing anything', async () => {
    const v1 = `/api/v4/projects/${owner.projectId}/packages/conan/v1/files/accel/1.0/${owner.fullPath.replace('/', '+')}/stable/0/export/conanfile.py`;
    const r = await send('PUT', v1, { body: Buffer.alloc(0), headers: { 'X-Checksum-Deploy': 'true', 'X-Checksum-Sha1': sha1('x') } });
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe('null');
    expect(await leftoverUploads()).toEqual([]);
  });

  it('answers 404 for a file whose stored object is gone', async () => {
    const data = Buffer.from('soon gone');
    const up = JSON.parse((await send('PUT', packageFile('conanmanifest.txt'), { body: data })).body.toString());
    const row = await f.registry.deps.db('conan_files').where({ id: up.id }).first();
    await f.registry.deps.storage.delete(row.storage_key);
    const r = await send('GET', packageFile('conanmanifest.txt'));
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body.toString())).toEqual({ message: '404 Not found' });
  });

  it('sends nothing to callers without access: a forged token is no credentials (404 to read, 401 to write), anonymous gets the 404', async () => {
    const forged = await send('GET', recipeFile('conan_sources.tgz'), { token: 'not-a-jwt' });
    expect(forged.status).toBe(404);
    expect(JSON.parse(forged.body.toString())).toEqual({ message: '404 Project Not Found' });
    const write = await send('PUT', recipeFile('conan_sources.tgz'), { token: 'not-a-jwt', body: Buffer.alloc(1000, 1) });
    expect(write.status).toBe(401);
    expect(JSON.parse(write.body.toString())).toEqual({ message: '401 Unauthorized' });
    expect(await leftoverUploads()).toEqual([]);
    const anon = await new Promise<number>((resolve, reject) => {
      http.get(`${f.url}${recipeFile('conan_sources.tgz')}`, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(anon).toBe(404);
  });

  it('answers 502 (and keeps nothing) when storage fails under an upload, instead of leaving the client waiting', async () => {
    const root = (f.registry.deps.storage as unknown as { root: string }).root;
    const blocker = path.join(root, 'uploads');
    fs.rmSync(blocker, { recursive: true, force: true });
    fs.writeFileSync(blocker, 'not a directory');
    try {
      const r = await send('PUT', recipeFile('conanfile.py'), { body: Buffer.alloc(400_000, 9) });
      expect(r.status).toBe(502);
      expect(JSON.parse(r.body.toString())).toEqual({ message: '502 Bad Gateway' });
    } finally {
      fs.rmSync(blocker, { force: true });
    }
    const temp = path.join(root, '.anvil-tmp');
    expect(fs.existsSync(temp) ? fs.readdirSync(temp) : []).toEqual([]);
    expect(await leftoverUploads()).toEqual([]);
  });
});
