import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { UPLOADS_PREFIX } from '@anvil/auth';
import { S3Storage } from '@anvil/storage';
import { AccessLevel } from '@anvil/auth';
import { registryJwt, startMiniFleet, uploadsStillReceiving, userWithProject, type MiniFleet } from './registry-fleet';
import { md5, RREV, sha1 } from '../../services/registry/test/helpers';
import { startS3 } from '../../services/registry/test/s3rver';

/** Accelerated transfers when the registry (and so the gateway) store files on S3. */
let s3: Awaited<ReturnType<typeof startS3>>;
let f: MiniFleet;

beforeAll(async () => {
  s3 = await startS3('accel');
  f = await startMiniFleet(s3.env);
}, 60_000);
afterAll(async () => {
  await f?.stop();
  (f?.registry.deps.storage as S3Storage | undefined)?.destroy();
  await s3?.close();
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

  it('sends a file downloaded again from S3 without the registry, and the new bytes once it was replaced behind the gateway', async () => {
    const owner = await userWithProject(f, 's3-reuse', 's3reuse');
    const jwt = await registryJwt(f, owner.projectId, 's3-reuse', owner.token);
    const path = `/api/v4/projects/${owner.projectId}/packages/conan/v2/conans/s3reuse/1.0/${owner.fullPath.replace('/', '+')}/stable/revisions/${RREV}/files/conanfile.py`;
    const get = async () => {
      const r = await fetch(`${f.url}${path}`, { headers: { Authorization: `Bearer ${jwt}` } });
      return { status: r.status, body: Buffer.from(await r.arrayBuffer()).toString() };
    };
    expect((await fetch(`${f.url}${path}`, { method: 'PUT', headers: { Authorization: `Bearer ${jwt}` }, body: 'print(1)\n' })).status).toBe(200);
    expect(await get()).toEqual({ status: 200, body: 'print(1)\n' });
    expect(await get()).toEqual({ status: 200, body: 'print(1)\n' });
    // another replica replaces it: the kept answer names an object S3 no longer has
    const scope = { id: owner.projectId, path_with_namespace: owner.fullPath, namespace_id: 0, group_id: null, visibility: 'private' as const, access_level: AccessLevel.OWNER };
    await f.registry.as({ user: owner.user, scopes: ['api'], auth: 'pat', token_id: 1, project: scope }).put(path).send('print(2)\n').expect(200);
    expect(await get()).toEqual({ status: 200, body: 'print(2)\n' });
  }, 60_000);

  it('lets go of a chunked body cut by a malformed chunk before the gateway listened, and leaves nothing on S3', async () => {
    const owner = await userWithProject(f, 's3-cut', 's3cut');
    const jwt = await registryJwt(f, owner.projectId, 's3-cut', owner.token);
    const path = `/api/v4/projects/${owner.projectId}/packages/conan/v2/conans/s3cut/1.0/${owner.fullPath.replace('/', '+')}/stable/revisions/${RREV}/files/conanfile.py`;
    const request = `PUT ${path} HTTP/1.1\r\nHost: anvil\r\nAuthorization: Bearer ${jwt}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n`;
    const status = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(new URL(f.url).port), '127.0.0.1', () => socket.write(request));
      let answer = '';
      socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(answer.split('\r\n')[0]));
    });
    expect(status).toBe('HTTP/1.1 400 Bad Request');
    // the gateway let go of the body: no S3 upload waits for bytes that will never come
    expect(await uploadsStillReceiving(f)).toBe(0);
    const left = async () => {
      const keys: string[] = [];
      for await (const o of f.registry.deps.storage.list(UPLOADS_PREFIX)) keys.push(o.key);
      return keys;
    };
    for (let i = 0; i < 50 && (await left()).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await left()).toEqual([]);
  });
});
