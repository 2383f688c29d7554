import { AccessLevel } from '@anvil/auth';
import { S3Storage } from '@anvil/storage';
import { asUser, md5, PKG_ID, PREV, project, rawPut, recipePath, RREV, startRegistry, user, v2, type Registry } from './helpers';
import { startS3 } from './s3rver';

let s3: Awaited<ReturnType<typeof startS3>>;
let svc: Registry;

beforeAll(async () => {
  s3 = await startS3('conan');
  svc = await startRegistry({ ...s3.env, CONAN_MAX_FILE_SIZE: '20M' });
});
afterAll(async () => {
  await svc?.stop();
  (svc?.deps.storage as S3Storage | undefined)?.destroy();
  await s3?.close();
});

describe('Conan files on S3 storage', () => {
  it('uploads (chunked, multipart-sized) and downloads through the S3 driver, reporting file_store 2', async () => {
    expect(svc.deps.storage).toBeInstanceOf(S3Storage);
    const p = project('private', AccessLevel.MAINTAINER);
    const who = asUser(user('s3'), p);
    const R = `${v2(p)}/${recipePath(p)}/revisions/${RREV}`;
    const big = Buffer.alloc(9 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    const chunks = Array.from({ length: Math.ceil(big.length / 65536) }, (_, i) => big.subarray(i * 65536, (i + 1) * 65536));
    const up = await rawPut(svc, `${R}/packages/${PKG_ID}/revisions/${PREV}/files/conan_package.tgz`, who, chunks);
    expect(up.status).toBe(200);
    const record = JSON.parse(up.body);
    expect(record).toMatchObject({ size: big.length, file_md5: md5(big), file_store: 2 });

    const down = await svc.as(who).get(`${R}/packages/${PKG_ID}/revisions/${PREV}/files/conan_package.tgz`).buffer(true).parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });
    expect(down.status).toBe(200);
    expect(down.headers['content-length']).toBe(String(big.length));
    expect(md5(down.body as Buffer)).toBe(md5(big));
  });

  it('deletes the objects with the revision', async () => {
    const p = project('private', AccessLevel.MAINTAINER);
    const who = asUser(user('s3'), p);
    const R = `${v2(p)}/${recipePath(p)}`;
    await svc.as(who).put(`${R}/revisions/${RREV}/files/conanfile.py`).send('x').expect(200);
    const [key] = await svc.deps.db('conan_files').where({ project_id: p.id }).pluck('storage_key');
    expect(await svc.deps.storage.head(key)).not.toBeNull();
    await svc.as(who).delete(`${R}/revisions/${RREV}`).expect(200);
    expect(await svc.deps.storage.head(key)).toBeNull();
  });

  it('refuses a body over the limit and leaves no object', async () => {
    const p = project('private', AccessLevel.MAINTAINER);
    const who = asUser(user('s3'), p);
    const url = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conan_sources.tgz`;
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const r = await rawPut(svc, url, who, Array.from({ length: 21 }, () => chunk));
    expect(r.status).toBe(400);
    const keys: string[] = [];
    for await (const o of svc.deps.storage.list('conan/')) keys.push(o.key);
    expect(keys.filter((k) => k.includes(`/files/`) && k.endsWith('conan_sources.tgz'))).toEqual([]);
  });
});
