import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UPLOADS_PREFIX } from '@anvil/auth';
import { S3Storage } from '@anvil/storage';
import { startMiniFleet, userWithProject, type MiniFleet } from './e2e-fleet';
import { md5, RREV, sha1 } from './helpers';

// s3rver ships no types; it is only used here, as a local S3 endpoint on a random port.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (o: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

/** Accelerated transfers when the registry (and so the gateway) store files on S3. */
let s3: { close(): Promise<void> };
let dir: string;
let f: MiniFleet;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'anvil-accel-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port } = await server.run();
  s3 = server;
  f = await startMiniFleet({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: `accel-${Date.now().toString(36)}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  });
}, 60_000);
afterAll(async () => {
  await f?.stop();
  (f?.registry.deps.storage as S3Storage | undefined)?.destroy();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('accelerated transfers on S3 storage', () => {
  it('stores the body through the gateway, moves it server-side and sends it back from S3', async () => {
    expect(f.registry.deps.storage).toBeInstanceOf(S3Storage);
    const owner = await userWithProject(f, 's3-accel', 's3accel');
    const jwt = await (await fetch(`${f.url}/api/v4/projects/${owner.projectId}/packages/conan/v2/users/authenticate`, { headers: { Authorization: `Basic ${Buffer.from(`s3-accel:${owner.token}`).toString('base64')}` } })).text();
    const url = `${f.url}/api/v4/projects/${owner.projectId}/packages/conan/v2/conans/s3pkg/1.0/${owner.fullPath.replace('/', '+')}/stable/revisions/${RREV}/files/conan_sources.tgz`;
    const data = randomBytes(9 * 1024 * 1024 + 5);
    const up = await fetch(url, { method: 'PUT', headers: { Authorization: `Bearer ${jwt}` }, body: data });
    expect(up.status).toBe(200);
    const record = await up.json();
    expect(record).toMatchObject({ size: data.length, file_md5: md5(data), file_sha1: sha1(data), file_store: 2 });
    const left: string[] = [];
    for await (const o of f.registry.deps.storage.list(UPLOADS_PREFIX)) left.push(o.key);
    expect(left).toEqual([]);
    const down = await fetch(url, { headers: { Authorization: `Bearer ${jwt}` } });
    expect(down.status).toBe(200);
    expect(down.headers.get('content-length')).toBe(String(data.length));
    expect(Buffer.from(await down.arrayBuffer()).equals(data)).toBe(true);
  }, 60_000);
});
