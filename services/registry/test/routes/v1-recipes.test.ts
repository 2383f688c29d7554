import { AccessLevel, type ProjectScope } from '@anvil/auth';
import { anon, asUser, md5, PKG_ID, project, RREV, seedV2, user, usernameOf, v1i, v1p, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

const owner = user('owner');
const BASE = 'http://127.0.0.1:8080';

/** The same recipe routes at instance level (project from the username) and at project level. */
const levels: [string, (p: ProjectScope) => string, (p: ProjectScope) => string][] = [
  ['instance', () => v1i, () => `${BASE}/api/v4/packages/conan/v1`],
  ['project', (p) => v1p(p), (p) => `${BASE}/api/v4/projects/${p.id}/packages/conan/v1`],
];

async function seedV1(p: ProjectScope, prefix: string) {
  const who = asUser(owner, p);
  const F = `${prefix}/files/hello/1.0/${usernameOf(p)}/stable/0`;
  await svc.as(who).put(`${F}/export/conanfile.py`).send('recipe').expect(200);
  await svc.as(who).put(`${F}/export/conanmanifest.txt`).send('1\n').expect(200);
  await svc.as(who).put(`${F}/package/${PKG_ID}/0/conan_package.tgz`).send('bin').expect(200);
  await svc.as(who).put(`${F}/package/${PKG_ID}/0/conaninfo.txt`).send('[settings]\n    os=Linux\n[recipe_hash]\n    abc\n').expect(200);
}

describe.each(levels)('v1 recipe routes at %s level', (_level, prefixOf, urlBase) => {
  const fresh = async () => {
    const p = project('private', AccessLevel.MAINTAINER);
    const prefix = prefixOf(p);
    await seedV1(p, prefix);
    return { p, who: asUser(owner, p), C: `${prefix}/conans/hello/1.0/${usernameOf(p)}/stable`, files: `${urlBase(p)}/files/hello/1.0/${usernameOf(p)}/stable/0` };
  };

  it('GET C answers the recipe snapshot (file → md5), {} for an unknown recipe', async () => {
    const { who, C, p } = await fresh();
    // exactly `application/json`, no charset, as GitLab answers
    await svc.as(who).get(C).expect('Content-Type', 'application/json').expect(200, { 'conanfile.py': md5('recipe'), 'conanmanifest.txt': md5('1\n') });
    await svc.as(who).get(C.replace('hello', 'other')).expect('Content-Type', 'application/json').expect(200, {});
    void p;
  });

  it('GET C/packages/:ref answers the package snapshot, {} for an unknown reference', async () => {
    const { who, C } = await fresh();
    await svc.as(who).get(`${C}/packages/${PKG_ID}`).expect(200, { 'conan_package.tgz': md5('bin'), 'conaninfo.txt': md5('[settings]\n    os=Linux\n[recipe_hash]\n    abc\n') });
    await svc.as(who).get(`${C}/packages/nothere`).expect(200, {});
  });

  it.each(['digest', 'download_urls'])('GET C/%s answers absolute download URLs with revision 0', async (route) => {
    const { who, C, files } = await fresh();
    await svc.as(who).get(`${C}/${route}`).expect(200, { 'conanfile.py': `${files}/export/conanfile.py`, 'conanmanifest.txt': `${files}/export/conanmanifest.txt` });
    await svc.as(who).get(`${C.replace('hello', 'other')}/${route}`).expect(404, { message: 'No recipe manifest found' });
  });

  it.each(['digest', 'download_urls'])('GET C/packages/:ref/%s answers the package download URLs', async (route) => {
    const { who, C, files } = await fresh();
    await svc.as(who).get(`${C}/packages/${PKG_ID}/${route}`).expect(200, {
      'conan_package.tgz': `${files}/package/${PKG_ID}/0/conan_package.tgz`,
      'conaninfo.txt': `${files}/package/${PKG_ID}/0/conaninfo.txt`,
    });
    await svc.as(who).get(`${C}/packages/nothere/${route}`).expect(404, { message: 'No recipe manifest found' });
  });

  it('POST C/upload_urls answers URLs for the recipe files asked for, in order, dropping others', async () => {
    const { who, C, files } = await fresh();
    const r = await svc.as(who).post(`${C}/upload_urls`).send({ 'conanmanifest.txt': 58, 'evil.txt': 1, 'conanfile.py': 950, 'conaninfo.txt': 3, 'conan_export.tgz': 4 }).expect(200);
    expect(r.text).toBe(JSON.stringify({ 'conanmanifest.txt': `${files}/export/conanmanifest.txt`, 'conanfile.py': `${files}/export/conanfile.py`, 'conan_export.tgz': `${files}/export/conan_export.tgz` }));
  });

  it('POST C/packages/:ref/upload_urls answers URLs for the package files asked for', async () => {
    const { who, C, files } = await fresh();
    const r = await svc.as(who).post(`${C}/packages/${PKG_ID}/upload_urls`).send({ 'conan_package.tgz': 63, 'conaninfo.txt': 150, 'conanmanifest.txt': 59, 'conanfile.py': 1 }).expect(200);
    expect(r.body).toEqual({
      'conan_package.tgz': `${files}/package/${PKG_ID}/0/conan_package.tgz`,
      'conaninfo.txt': `${files}/package/${PKG_ID}/0/conaninfo.txt`,
      'conanmanifest.txt': `${files}/package/${PKG_ID}/0/conanmanifest.txt`,
    });
  });

  it('POST upload_urls refuses a JSON array with 400, reads an untyped body, and answers 401 to nobody', async () => {
    const { who, C, p, files } = await fresh();
    await svc.as(who).post(`${C}/upload_urls`).send(['conanfile.py']).expect(400, { message: '400 Bad request' });
    await svc.as(who).post(`${C}/upload_urls`).set('Content-Type', 'text/plain').send('{"conanfile.py": 1}').expect(200, { 'conanfile.py': `${files}/export/conanfile.py` });
    await svc.as(anon({ ...p, visibility: 'public' })).post(`${C}/upload_urls`).send({}).expect(401, { message: '401 Unauthorized' });
  });

  it('POST upload_urls needs read access only, as GitLab’s code: a reporter gets the URLs, then 403 on the PUT', async () => {
    const { C, p, files } = await fresh();
    const reporter = asUser(user('reporter'), { ...p, access_level: AccessLevel.REPORTER });
    await svc.as(reporter).post(`${C}/upload_urls`).send({ 'conanfile.py': 1 }).expect(200, { 'conanfile.py': `${files}/export/conanfile.py` });
    const path = new URL(`${files}/export/conanfile.py`).pathname;
    await svc.as(reporter).put(path).send('changed').expect(403, { message: '403 Forbidden' });
    expect((await svc.as(asUser(owner, p)).get(path).buffer(true).expect(200)).body.toString()).toBe('recipe');
    await svc.as(asUser(user('outsider'), { ...p, access_level: 0 })).post(`${C}/upload_urls`).send({ 'conanfile.py': 1 }).expect(404, { message: '404 Project Not Found' });
  });

  it('DELETE C deletes the whole package (Maintainer), 403 below, 404 when absent', async () => {
    const { who, C, p } = await fresh();
    await svc.as(asUser(user(), { ...p, access_level: AccessLevel.DEVELOPER })).delete(C).expect(403, { message: '403 Forbidden' });
    const r = await svc.as(who).delete(C).expect(200);
    expect(r.body).toMatchObject({ name: 'hello', version: '1.0', project_id: p.id, package_type: 'conan' });
    await svc.as(who).get(C).expect(200, {});
    expect(await svc.deps.db('conan_files').where({ project_id: p.id })).toEqual([]);
    await svc.as(who).delete(C).expect(404, { message: '404 Package Not Found' });
  });

  it('GET C/search answers the package references with their metadata', async () => {
    const { who, C } = await fresh();
    await svc.as(who).get(`${C}/search`).expect(200, { [PKG_ID]: { settings: { os: 'Linux' }, recipe_hash: 'abc' } });
    await svc.as(who).get(`${C.replace('hello', 'other')}/search`).expect(404, { message: '404 Package Not Found' });
  });
});

describe('v1 and v2 share packages', () => {
  it('a v2 upload is listed and downloadable through v1 (newest revision, URLs with revision 0)', async () => {
    const p = project('public', AccessLevel.MAINTAINER);
    await seedV2(svc, p, asUser(owner, p));
    const C = `${v1p(p)}/conans/hello/1.0/${usernameOf(p)}/stable`;
    const urls = await svc.as(anon(p)).get(`${C}/download_urls`).expect(200);
    expect(Object.keys(urls.body).sort()).toEqual(['conanfile.py', 'conanmanifest.txt']);
    const path = new URL(urls.body['conanfile.py']).pathname;
    const got = await svc.as(anon(p)).get(path).expect(200);
    expect(got.body.toString()).toBe('from conan import ConanFile\n');
    expect(path).toContain('/stable/0/export/');
    void RREV;
  });

  it('at instance level, a username that is not the project’s path is 404 Project Not Found', async () => {
    const p = project('public', AccessLevel.MAINTAINER, undefined, 'some/where');
    await svc.as(anon(p)).get(`${v1i}/conans/hello/1.0/other+path/stable`).expect(404, { message: '404 Project Not Found' });
    await svc.as(anon()).get(`${v1i}/conans/hello/1.0/some+where/stable`).expect(404, { message: '404 Project Not Found' });
    await svc.as(anon(p)).get(`${v1i}/conans/hello/1.0/some+where/stable`).expect(200, {});
  });
});
