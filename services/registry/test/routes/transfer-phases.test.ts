import { Readable } from 'node:stream';
import { AccessLevel, newUploadKey, SEND_FILE_HEADER, REUSABLE_ANSWER_HEADER } from '@anvil/auth';
import { asUser, md5, project, recipePath, RREV, user, v2, registryForTests, type Registry } from '../helpers';

/**
 * The registry's side of accelerated transfers, with contexts signed as the gateway signs them: the
 * pre-authorisation, the stored upload (with and without a reservation), and send-file answers.
 */
let svc: Registry;
registryForTests((s) => (svc = s), { CONAN_MAX_FILE_SIZE: '1M' });

const stored = async (data: Buffer) => {
  const key = newUploadKey();
  await svc.deps.storage.put(key, Readable.from([data]));
  return { key, size: data.length, md5: md5(data), sha1: 'a'.repeat(40), sha256: 'b'.repeat(64) };
};

describe('pre-authorisation (transfer.phase = authorize)', () => {
  it('answers the limit after the upload’s own checks, creating and storing nothing', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const file = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`;
    const dev = user('phase-dev');
    // no package yet: none is made before its first file is (a body that never comes leaves nothing)
    const r = await svc.as({ ...asUser(dev, p), transfer: { phase: 'authorize', declared: 10 } }).put(file).expect(200);
    expect(r.body).toEqual({ MaximumSize: 1024 * 1024 });
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
    await svc.as(asUser(dev, p)).get(`${v2(p)}/${recipePath(p)}/revisions`).expect(404, { message: '404 Package Not Found' });
    // a package that exists: its id and a file id are reserved for the stored upload
    const first = await svc.as(asUser(dev, p)).put(file.replace('conanfile.py', 'conanmanifest.txt')).send('m').expect(200);
    const again = await svc.as({ ...asUser(dev, p), transfer: { phase: 'authorize', declared: 10 } }).put(file).expect(200);
    expect(again.body).toEqual({ MaximumSize: 1024 * 1024, Reservation: { package_id: first.body.package_id, file_id: expect.any(Number) } });
    expect(again.body.Reservation.file_id).toBeGreaterThan(first.body.id);
    expect(await svc.deps.db('conan_files').where({ project_id: p.id }).pluck('file_name')).toEqual(['conanmanifest.txt']);
    const tooBig = await svc.as({ ...asUser(dev, p), transfer: { phase: 'authorize', declared: 1024 * 1024 + 1 } }).put(file).expect(400);
    expect(tooBig.body).toEqual({ message: '400 Bad request - File is too large' });
    const reporter = project('private', AccessLevel.REPORTER, p.id, p.path_with_namespace);
    expect((await svc.as({ ...asUser(user('phase-rep'), reporter), transfer: { phase: 'authorize', declared: 10 } }).put(file).expect(403)).body).toEqual({ message: '403 Forbidden' });
  });
});

describe('a stored upload (transfer.phase = stored)', () => {
  it('moves the object into place under the reserved package and file id', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const dev = user('phase-dev2');
    const file = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`;
    await svc.as(asUser(dev, p)).put(file.replace('conanfile.py', 'conanmanifest.txt')).send('m').expect(200);
    const { body } = await svc.as({ ...asUser(dev, p), transfer: { phase: 'authorize', declared: null } }).put(file).expect(200);
    const upload = await stored(Buffer.from('print("hi")\n'));
    const r = await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload, reservation: body.Reservation } }).put(file).expect(200);
    expect(r.body).toMatchObject({ id: body.Reservation.file_id, package_id: body.Reservation.package_id, size: upload.size, file_md5: upload.md5 });
    expect(await svc.deps.storage.head(upload.key)).toBeNull();
  });

  it('without a reservation creates the package on its first file (announced once) and records later files by reference', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const dev = user('phase-dev5');
    const slot = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files`;
    const first = await stored(Buffer.from('print("one")\n'));
    const a = await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload: first } }).put(`${slot}/conanfile.py`).expect(200);
    const [pkg] = await svc.deps.db('conan_packages').where({ project_id: p.id });
    expect(a.body).toMatchObject({ package_id: Number(pkg.id), project_id: p.id, size: first.size, file_md5: first.md5, file_name: 'conanfile.py' });
    // file.url is GitLab's path of the record, whatever the object's key
    expect(a.body.file.url).toMatch(new RegExp(`^/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{64}/packages/${pkg.id}/files/${a.body.id}/conanfile.py$`));
    const second = await stored(Buffer.from('manifest'));
    const b = await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload: second } }).put(`${slot}/conanmanifest.txt`).expect(200);
    expect(b.body.package_id).toBe(Number(pkg.id));
    expect(b.body.id).toBeGreaterThan(a.body.id);
    const created = (await svc.deps.db('outbox').where({ type: 'registry.package.created' })).filter((r: { data: { id: number } }) => String(r.data.id) === String(pkg.id));
    expect(created).toHaveLength(1);
    for (const u of [first, second]) expect(await svc.deps.storage.head(u.key)).toBeNull();
    const rows = await svc.deps.db('conan_files').where({ project_id: p.id }).orderBy('id');
    expect(rows.map((r: { file_name: string }) => r.file_name)).toEqual(['conanfile.py', 'conanmanifest.txt']);
    for (const r of rows) expect((await svc.deps.storage.head(r.storage_key))?.size).toBe(Number(r.size));
  });

  it('without a reservation records into a package made again after a delete (nothing of the old one reused)', async () => {
    const p = project('private', AccessLevel.MAINTAINER);
    const dev = user('phase-dev6');
    const file = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`;
    const a = await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload: await stored(Buffer.from('a')) } }).put(file).expect(200);
    // the only revision: the package goes with it
    await svc.as(asUser(dev, p)).delete(`${v2(p)}/${recipePath(p)}/revisions/${RREV}`).expect(200);
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
    const b = await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload: await stored(Buffer.from('bb')) } }).put(file).expect(200);
    expect(b.body.package_id).not.toBe(a.body.package_id);
    expect((await svc.deps.db('conan_packages').where({ project_id: p.id })).map((r: { id: string }) => Number(r.id))).toEqual([b.body.package_id]);
    expect((await svc.as(asUser(dev, p)).get(file).buffer(true)).body.toString()).toBe('bb');
  });

  it('refuses a reservation of another project’s package (404, nothing recorded, the object deleted)', async () => {
    const mine = project('private', AccessLevel.DEVELOPER);
    const other = project('private', AccessLevel.DEVELOPER);
    const dev = user('phase-dev3');
    const otherFile = `${v2(other)}/${recipePath(other)}/revisions/${RREV}/files/conanfile.py`;
    await svc.as(asUser(dev, other)).put(otherFile.replace('conanfile.py', 'conanmanifest.txt')).send('m').expect(200);
    const { body } = await svc.as({ ...asUser(dev, other), transfer: { phase: 'authorize', declared: null } }).put(otherFile).expect(200);
    const upload = await stored(Buffer.from('x'));
    const file = `${v2(mine)}/${recipePath(mine)}/revisions/${RREV}/files/conanfile.py`;
    const r = await svc.as({ ...asUser(dev, mine), transfer: { phase: 'stored', upload, reservation: body.Reservation } }).put(file).expect(404);
    expect(r.body).toEqual({ message: '404 Package Not Found' });
    expect(await svc.deps.db('conan_files').where({ package_id: body.Reservation.package_id }).pluck('file_name')).toEqual(['conanmanifest.txt']);
    expect(await svc.deps.db('conan_files').where({ project_id: mine.id })).toEqual([]);
    expect(await svc.deps.storage.head(upload.key)).toBeNull();
  });

  it('refuses a stored object outside uploads/, and one over the limit', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const dev = user('phase-dev4');
    const file = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`;
    const outside = { key: 'conan/aa/bb/other-file', size: 1, md5: md5('x'), sha1: 'a'.repeat(40), sha256: 'b'.repeat(64) };
    await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload: outside } }).put(file).expect(400, { message: '400 Bad request - upload is invalid' });
    const big = await stored(Buffer.alloc(1024 * 1024 + 1));
    const r = await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload: big } }).put(file).expect(400);
    expect(r.body).toEqual({ message: '400 Bad request - File is too large' });
    expect(await svc.deps.storage.head(big.key)).toBeNull();
  });

  it('leaves nothing behind when the disk refuses to flush a moved object (500, no record, no file)', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const dev = user('phase-dev7');
    const file = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`;
    const upload = await stored(Buffer.from('print("lost")\n'));
    const storage = svc.deps.storage;
    const move = storage.move;
    let movedTo: string | null = null;
    // the rename happens; the flush after it fails as a failing disk's does
    storage.move = async (from: string, to: string) => {
      await move.call(storage, from, to);
      movedTo = to;
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    };
    try {
      const r = await svc.as({ ...asUser(dev, p), transfer: { phase: 'stored', upload } }).put(file).expect(500);
      expect(r.body).toEqual({ message: '500 Internal Server Error' });
    } finally {
      storage.move = move;
    }
    expect(movedTo).not.toBeNull();
    expect(await storage.head(movedTo!)).toBeNull();
    expect(await storage.head(upload.key)).toBeNull();
    expect(await svc.deps.db('conan_files').where({ project_id: p.id })).toEqual([]);
  });
});

describe('send-file answers', () => {
  it('name the stored object instead of sending it when the gateway serves files', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const dev = user('phase-dev5');
    const file = `${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`;
    await svc.as(asUser(dev, p)).put(file).send('print(1)\n').expect(200);
    const row = await svc.deps.db('conan_files').where({ project_id: p.id }).first();
    const r = await svc.as({ ...asUser(dev, p), send_file: true }).get(file).buffer(true).expect(200);
    expect(r.headers[SEND_FILE_HEADER]).toBe(row.storage_key);
    // a v2 address names this file for good: the gateway may give the answer again to the same caller
    expect(r.headers[REUSABLE_ANSWER_HEADER]).toBe('max-age=10');
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.body.length ?? 0).toBe(0);
    const direct = await svc.as(asUser(dev, p)).get(file).buffer(true).expect(200);
    expect(direct.headers[SEND_FILE_HEADER]).toBeUndefined();
    expect(Buffer.from(direct.body).toString()).toBe('print(1)\n');
  });

  it('are not marked reusable for a v1 address (it names the newest revision, which can change)', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const dev = user('phase-dev6');
    await svc.as(asUser(dev, p)).put(`${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`).send('print(1)\n').expect(200);
    const r = await svc.as({ ...asUser(dev, p), send_file: true }).get(`/api/v4/projects/${p.id}/packages/conan/v1/files/${recipePath(p).slice("conans/".length)}/0/export/conanfile.py`).expect(200);
    expect(r.headers[SEND_FILE_HEADER]).toBeTruthy();
    expect(r.headers[REUSABLE_ANSWER_HEADER]).toBeUndefined();
  });
});
