import { AccessLevel } from '@anvil/auth';
import { anon, asUser, PKG_ID, PREV, project, recipePath, RREV, startRegistry, user, v1i, v1p, v2, type Registry } from '../helpers';

describe('GET /packages/conan/v1/ping and /projects/:id/packages/conan/v1/ping', () => {
  let svc: Registry;
  beforeAll(async () => {
    svc = await startRegistry();
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('answers 200 with an empty body and the revisions capability, without credentials', async () => {
    const r = await svc.as(anon()).get(`${v1i}/ping`).expect(200);
    expect(r.headers['x-conan-server-capabilities']).toBe('revisions');
    expect(r.text).toBe('');
  });

  it('answers at project level too, with Basic credentials (what `conan remote login` sends)', async () => {
    const p = project('private', AccessLevel.DEVELOPER);
    const r = await svc.as(asUser(user(), p, { auth: 'basic' })).get(`${v1p(p)}/ping`).expect(200);
    expect(r.headers['x-conan-server-capabilities']).toBe('revisions');
  });

  it('has no v2 ping (Conan 2 pings v1)', async () => {
    const p = project('public');
    await svc.as(anon(p)).get(`${v2(p)}/ping`).expect(404, { error: '404 Not Found' });
  });
});

describe('FIPS mode', () => {
  let svc: Registry;
  beforeAll(async () => {
    svc = await startRegistry({ FIPS_MODE: 'true' });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const p = project('public', AccessLevel.OWNER);
  const R = recipePath(p);
  const RR = `${R}/revisions/${RREV}`;
  const PRR = `${RR}/packages/${PKG_ID}/revisions/${PREV}`;
  const F = `files/hello/1.0/group+project-${p.id}/stable/0`;
  const routes: [string, string][] = [
    ['get', `${v1i}/ping`],
    ['get', `${v1i}/users/authenticate`],
    ['get', `${v1i}/users/check_credentials`],
    ['get', `${v1i}/conans/search?q=hello`],
    ['get', `${v1i}/${R}`],
    ['get', `${v1i}/${R}/search`],
    ['get', `${v1i}/${R}/digest`],
    ['get', `${v1i}/${R}/download_urls`],
    ['post', `${v1i}/${R}/upload_urls`],
    ['delete', `${v1i}/${R}`],
    ['get', `${v1i}/${R}/packages/${PKG_ID}`],
    ['get', `${v1i}/${R}/packages/${PKG_ID}/digest`],
    ['get', `${v1i}/${R}/packages/${PKG_ID}/download_urls`],
    ['post', `${v1i}/${R}/packages/${PKG_ID}/upload_urls`],
    ['get', `${v1i}/${F}/export/conanfile.py`],
    ['put', `${v1i}/${F}/export/conanfile.py`],
    ['get', `${v1i}/${F}/package/${PKG_ID}/0/conaninfo.txt`],
    ['put', `${v1i}/${F}/package/${PKG_ID}/0/conaninfo.txt`],
    ['get', `${v1p(p)}/ping`],
    ['get', `${v1p(p)}/conans/search?q=hello`],
    ['get', `${v1p(p)}/${R}`],
    ['put', `${v1p(p)}/${F}/export/conanfile.py`],
    ['get', '/api/v4/packages/conan/v2/users/authenticate'],
    ['get', `${v2(p)}/users/authenticate`],
    ['get', `${v2(p)}/users/check_credentials`],
    ['get', `${v2(p)}/conans/search?q=hello`],
    ['get', `${v2(p)}/${R}/latest`],
    ['get', `${v2(p)}/${R}/revisions`],
    ['get', `${v2(p)}/${R}/search`],
    ['delete', `${v2(p)}/${RR}`],
    ['get', `${v2(p)}/${RR}/search`],
    ['get', `${v2(p)}/${RR}/files`],
    ['get', `${v2(p)}/${RR}/files/conanfile.py`],
    ['put', `${v2(p)}/${RR}/files/conanfile.py`],
    ['get', `${v2(p)}/${RR}/packages/${PKG_ID}/revisions`],
    ['get', `${v2(p)}/${RR}/packages/${PKG_ID}/latest`],
    ['delete', `${v2(p)}/${PRR}`],
    ['get', `${v2(p)}/${PRR}/files`],
    ['get', `${v2(p)}/${PRR}/files/conan_package.tgz`],
    ['put', `${v2(p)}/${PRR}/files/conan_package.tgz`],
  ];

  it.each(routes)('%s %s answers 404 Not Found', async (method, path) => {
    const client = svc.as(asUser(user('admin', true), p))[method as 'get'](path);
    const r = await (method === 'put' ? client.send('x') : client);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: '404 Not Found' });
    expect(r.headers['x-conan-server-capabilities']).toBeUndefined();
  });

  it('stores nothing', async () => {
    expect(await svc.deps.db('conan_packages').count('* as n')).toEqual([{ n: '0' }]);
  });
});
