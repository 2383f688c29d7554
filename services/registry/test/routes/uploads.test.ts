import http from 'node:http';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { AccessLevel, CONTEXT_HEADER } from '@anvil/auth';
import { signFor } from '@anvil/testing';
import { asUser, md5, project, rawPut, recipePath, RREV, sha1, sha256, user, v2, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s), { CONAN_MAX_FILE_SIZE: '1K' });

const dev = user('dev');
const setup = () => {
  const p = project('private', AccessLevel.DEVELOPER);
  return { p, who: asUser(dev, p), url: `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conan_sources.tgz` };
};
const storedFiles = () => {
  const root = (svc.deps.storage as unknown as { root: string }).root;
  const walk = (d: string): string[] => {
    try {
      return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
    } catch {
      return [];
    }
  };
  return walk(root);
};

describe('streamed uploads (PUT …/files/:file_name)', () => {
  it('accepts a chunked body without Content-Length; size and digests come from the bytes', async () => {
    const { p, who, url } = setup();
    const chunks = [Buffer.from('a'.repeat(300)), Buffer.from('b'.repeat(300)), Buffer.from('c'.repeat(100))];
    const all = Buffer.concat(chunks);
    const r = await rawPut(svc, url, who, chunks, { 'X-Checksum-Sha1': 'f'.repeat(40) });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ size: 700, file_md5: md5(all), file_sha1: sha1(all), file_sha256: sha256(all) });
    const row = await svc.deps.db('conan_files').where({ project_id: p.id }).first();
    expect((await svc.deps.storage.head(row.storage_key))?.size).toBe(700);
  });

  it.each(['application/x-www-form-urlencoded', 'application/json'])('stores a body sent as %s byte for byte (never parsed)', async (type) => {
    const { p, who, url } = setup();
    const body = Buffer.from(type.endsWith('json') ? '{"a":1}' : 'a=1&b=2');
    const r = await rawPut(svc, url, who, [body], { 'Content-Type': type, 'Content-Length': String(body.length) });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ size: body.length, file_sha256: sha256(body) });
    const row = await svc.deps.db('conan_files').where({ project_id: p.id }).first();
    expect((await svc.deps.storage.head(row.storage_key))?.size).toBe(body.length);
  });

  it('stores an empty chunked body as a zero-byte file (Conan 2’s empty conaninfo.txt)', async () => {
    const { p, who } = setup();
    const url = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/packages/abc/revisions/${RREV}/files/conaninfo.txt`;
    const r = await rawPut(svc, url, who, []);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ size: 0, file_md5: md5(''), file_name: 'conaninfo.txt' });
    await svc.as(who).get(url).expect(200).then((x) => expect(x.headers['content-length']).toBe('0'));
  });

  it('refuses a declared Content-Length over the limit with 400 File is too large, storing nothing', async () => {
    const { p, who, url } = setup();
    const body = Buffer.alloc(1025, 1);
    const r = await rawPut(svc, url, who, [body], { 'Content-Length': String(body.length) });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ message: '400 Bad request - File is too large' });
    expect(await svc.deps.db('conan_files').where({ project_id: p.id })).toEqual([]);
  });

  it('refuses a chunked body that grows over the limit and removes the partial object', async () => {
    const { p, who, url } = setup();
    const before = storedFiles().length;
    const r = await rawPut(svc, url, who, [Buffer.alloc(600, 1), Buffer.alloc(600, 2)]);
    expect(r.status).toBe(400);
    expect(r.headers.connection).toBe('close');
    expect(JSON.parse(r.body)).toEqual({ message: '400 Bad request - File is too large' });
    expect(await svc.deps.db('conan_files').where({ project_id: p.id })).toEqual([]);
    expect(storedFiles().length).toBe(before);
    // nor an empty package: the package of a first file is made only when that file is recorded
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
    await svc.as(who).get(`${v2(p)}/${recipePath(p)}/revisions`).expect(404, { message: '404 Package Not Found' });
  });

  it('accepts exactly the limit', async () => {
    const { who, url } = setup();
    const r = await rawPut(svc, url, who, [Buffer.alloc(1024, 3)]);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).size).toBe(1024);
  });

  it('leaves nothing behind when the client aborts mid-body', async () => {
    const { p, who, url } = setup();
    const before = storedFiles().length;
    await new Promise<void>((resolve) => {
      const req = http.request(`${svc.url}${url}`, { method: 'PUT', headers: { [CONTEXT_HEADER]: signFor('put', url, who, 'registry'), 'Content-Length': '1000' } });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(200, 1));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 100);
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await svc.deps.db('conan_files').where({ project_id: p.id })).toEqual([]);
    expect(storedFiles().length).toBe(before);
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
  });

  it('ignores the sizes an upload_urls request declares', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const who = asUser(dev, p);
    const C = `/api/v4/projects/${p.id}/packages/conan/v1/conans/hello/1.0/group+project-${p.id}/stable`;
    const urls = await svc.as(who).post(`${C}/upload_urls`).send({ 'conanfile.py': 999999 }).expect(200);
    const put = await svc.as(who).put(new URL(urls.body['conanfile.py']).pathname).send('tiny').expect(200);
    expect(put.body.size).toBe(4);
  });
});
