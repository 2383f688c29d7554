import { AccessLevel } from '@anvil/auth';
import { anon, asUser, md5, PREV, project, recipePath, RREV, RREV2, seedV2, sha1, user, v2, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

const owner = user('owner');
const setup = async (visibility: 'public' | 'private' = 'private') => {
  const p = project(visibility, AccessLevel.MAINTAINER);
  return { p, who: asUser(owner, p), R: `${v2(p)}/${recipePath(p)}` };
};

describe('GET /projects/:id/packages/conan/v2/conans/R/latest', () => {
  it('returns the newest recipe revision with its creation time', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await seedV2(svc, p, who, { rrev: RREV2 });
    const rows = await svc.deps.db('conan_recipe_revisions').orderBy('id');
    const r = await svc.as(who).get(`${R}/latest`).expect(200);
    expect(r.body).toEqual({ revision: RREV2, time: rows[1].created_at.toISOString().replace(/Z$/, '+0000') });
    expect(r.body.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  });

  it('answers 404 Package Not Found for an unknown recipe', async () => {
    const { who, R } = await setup();
    const r = await svc.as(who).get(`${R}/latest`).expect(404);
    expect(r.body).toEqual({ message: '404 Package Not Found' });
  });

  it('answers 404 Revision Not Found for a package with only the v1 revision', async () => {
    const { p, who, R } = await setup();
    await svc.as(who).put(`/api/v4/projects/${p.id}/packages/conan/v1/files/hello/1.0/group+project-${p.id}/stable/0/export/conanfile.py`).send('x').expect(200);
    const r = await svc.as(who).get(`${R}/latest`).expect(404);
    expect(r.body).toEqual({ message: '404 Revision Not Found' });
  });
});

describe('GET /projects/:id/packages/conan/v2/conans/R/revisions', () => {
  it('lists revisions newest first with the reference', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await seedV2(svc, p, who, { rrev: RREV2 });
    const r = await svc.as(who).get(`${R}/revisions`).expect(200);
    expect(r.body.reference).toBe(`hello/1.0@group+project-${p.id}/stable`);
    expect(r.body.revisions.map((x: { revision: string }) => x.revision)).toEqual([RREV2, RREV]);
    expect(Object.keys(r.body.revisions[0])).toEqual(['revision', 'time']);
    const pkg = await svc.deps.db('conan_packages').where({ project_id: p.id }).first();
    const row = await svc.deps.db('conan_recipe_revisions').where({ package_id: pkg.id, revision: RREV2 }).first();
    expect(r.body.revisions[0].time).toBe(row.created_at.toISOString().replace(/Z$/, '+0000'));
  });

  it('answers 404 Package Not Found for an unknown recipe (Conan 2’s “not uploaded yet”)', async () => {
    const { who, R } = await setup();
    await svc.as(who).get(`${R}/revisions`).expect(404, { message: '404 Package Not Found' });
  });
});

describe('PUT /projects/:id/packages/conan/v2/conans/R/revisions/:recipe_revision/files/:file_name', () => {
  it('stores the file and answers the package file record', async () => {
    const { p, who, R } = await setup();
    const body = Buffer.from('from conan import ConanFile\n');
    const r = await svc.as(who).put(`${R}/revisions/${RREV}/files/conanfile.py`).set('X-Checksum-Sha1', sha1(body)).send(body).expect(200);
    const pkg = await svc.deps.db('conan_packages').where({ project_id: p.id }).first();
    expect(r.body).toEqual({
      id: expect.any(Number),
      package_id: Number(pkg.id),
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      size: body.length,
      file_store: 1,
      file_md5: md5(body),
      file_sha1: sha1(body),
      file_name: 'conanfile.py',
      file: { url: expect.stringMatching(new RegExp(`^/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{64}/packages/${pkg.id}/files/${r.body.id}/conanfile.py$`)) },
      file_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      verification_retry_at: null,
      verified_at: null,
      verification_failure: null,
      verification_retry_count: null,
      verification_checksum: null,
      verification_state: 0,
      verification_started_at: null,
      status: 'default',
      file_final_path: null,
      project_id: p.id,
      new_file_path: null,
    });
    const got = await svc.as(who).get(`${R}/revisions/${RREV}/files/conanfile.py`).expect(200);
    expect(got.body).toEqual(body);
  });

  it('answers 401 to nobody, 403 to a reporter', async () => {
    const p = project('public', AccessLevel.REPORTER);
    const R = `${v2(p)}/${recipePath(p)}`;
    await svc.as(anon(p)).put(`${R}/revisions/${RREV}/files/conanfile.py`).send('x').expect(401, { message: '401 Unauthorized' });
    await svc.as(asUser(user(), p)).put(`${R}/revisions/${RREV}/files/conanfile.py`).send('x').expect(403, { message: '403 Forbidden' });
  });

  it('refuses revision 0 and unknown file names', async () => {
    const { who, R } = await setup();
    await svc.as(who).put(`${R}/revisions/0/files/conanfile.py`).send('x').expect(400, { error: 'recipe_revision is invalid' });
    await svc.as(who).put(`${R}/revisions/${RREV}/files/evil.sh`).send('x').expect(400, { error: 'file_name does not have a valid value' });
  });
});

describe('GET /projects/:id/packages/conan/v2/conans/R/revisions/:recipe_revision/files', () => {
  it('lists the recipe files as empty objects', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).get(`${R}/revisions/${RREV}/files`).expect(200, { files: { 'conanfile.py': {}, 'conanmanifest.txt': {} } });
  });

  it('answers 404 Recipe files Not Found for an unknown revision, 404 Package for an unknown recipe', async () => {
    const { p, who, R } = await setup();
    await svc.as(who).get(`${R}/revisions/${RREV}/files`).expect(404, { message: '404 Package Not Found' });
    await seedV2(svc, p, who);
    await svc.as(who).get(`${R}/revisions/${RREV2}/files`).expect(404, { message: '404 Recipe files Not Found' });
  });
});

describe('GET /projects/:id/packages/conan/v2/conans/R/revisions/:recipe_revision/files/:file_name', () => {
  it('streams the file as an octet-stream attachment with its length', async () => {
    const { p, who, R } = await setup('public');
    await seedV2(svc, p, who);
    const r = await svc.as(anon(p)).get(`${R}/revisions/${RREV}/files/conanfile.py`).expect(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.headers['content-length']).toBe(String('from conan import ConanFile\n'.length));
    expect(r.headers['content-disposition']).toBe(`attachment; filename="conanfile.py"; filename*=UTF-8''conanfile.py`);
    expect(r.body.toString()).toBe('from conan import ConanFile\n');
  });

  it('answers 404 Not found for a file the revision does not have', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).get(`${R}/revisions/${RREV}/files/conan_sources.tgz`).expect(404, { message: '404 Not found' });
    await svc.as(who).get(`${R}/revisions/${RREV2}/files/conanfile.py`).expect(404, { message: '404 Not found' });
  });
});

describe('DELETE /projects/:id/packages/conan/v2/conans/R/revisions/:recipe_revision', () => {
  it('deletes one of several revisions with its files (objects too), keeping the package', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await seedV2(svc, p, who, { rrev: RREV2 });
    const keysOf = (rev: string) =>
      svc.deps.db('conan_files as f').join('conan_recipe_revisions as r', 'r.id', 'f.recipe_revision_id').where({ 'f.project_id': p.id, 'r.revision': rev }).pluck('f.storage_key');
    const [old, kept] = [await keysOf(RREV), await keysOf(RREV2)];
    expect(old).toHaveLength(5);
    await svc.as(who).delete(`${R}/revisions/${RREV}`).expect(200);
    await svc.as(who).get(`${R}/revisions`).expect(200).then((r) => expect(r.body.revisions.map((x: { revision: string }) => x.revision)).toEqual([RREV2]));
    await svc.as(who).get(`${R}/revisions/${RREV}/files`).expect(404, { message: '404 Recipe files Not Found' });
    for (const k of old) expect(await svc.deps.storage.head(k)).toBeNull();
    for (const k of kept) expect(await svc.deps.storage.head(k)).not.toBeNull();
    expect(await keysOf(RREV)).toEqual([]);
  });

  it('deletes the whole package when it is the only revision', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).delete(`${R}/revisions/${RREV}`).expect(200);
    await svc.as(who).get(`${R}/latest`).expect(404, { message: '404 Package Not Found' });
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
  });

  it('answers 404 Revision Not Found, and 403 to a developer', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).delete(`${R}/revisions/${RREV2}`).expect(404, { message: '404 Revision Not Found' });
    const devP = { ...p, access_level: AccessLevel.DEVELOPER };
    await svc.as(asUser(user(), devP)).delete(`${R}/revisions/${RREV}`).expect(403, { message: '403 Forbidden' });
  });

  it('honours If-Unmodified-Since with 412', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).delete(`${R}/revisions/${RREV}`).set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT').expect(412, { message: '412 Precondition Failed' });
    await svc.as(who).get(`${R}/latest`).expect(200);
  });

  it('refuses revision 0', async () => {
    const { who, R } = await setup();
    await svc.as(who).delete(`${R}/revisions/0`).expect(400, { error: 'recipe_revision is invalid' });
  });
});
