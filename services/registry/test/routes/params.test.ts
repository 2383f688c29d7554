import { AccessLevel } from '@anvil/auth';
import { asUser, PKG_ID, project, RREV, user, usernameOf, v1i, v1p, v2, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

const p = project('public', AccessLevel.MAINTAINER, 4242, 'group/proj');
const who = asUser(user('m'), p);
const U = usernameOf(p);

describe('recipe path validation (every recipe route)', () => {
  it.each([
    ['pac$kage', '1.0', U, 'stable', 'package_name is invalid'],
    ['hello', '1.$', U, 'stable', 'package_version is invalid'],
    ['hello', '1.0', 'gr$up', 'stable', 'package_username is invalid'],
    ['hello', '1.0', U, '$table', 'package_channel is invalid'],
    ['h', '1', 'a', 'b', 'package_name is invalid, package_version is invalid, package_username is invalid, package_channel is invalid'],
    ['..', '1.0', U, 'stable', 'package_name is invalid'],
  ])('%s/%s@%s/%s → 400 %s', async (name, version, username, channel, error) => {
    const R = `conans/${name}/${version}/${username}/${channel}`;
    await svc.as(who).get(`${v2(p)}/${R}/latest`).expect(400, { error });
    await svc.as(who).get(`${v1p(p)}/${R}/digest`).expect(400, { error });
    await svc.as(who).get(`${v1i}/${R}`).expect(400, { error });
  });

  it('reports the recipe parts before the revision and file name (Grape order)', async () => {
    await svc.as(who).get(`${v2(p)}/conans/h$/1.0/${U}/stable/revisions/0/files/x`).expect(400, {
      error: 'package_name is invalid, recipe_revision is invalid, file_name does not have a valid value',
    });
  });
});

describe('username and channel `_` rules', () => {
  it.each([
    [v2(p), '_', '_', 404, { message: '404 Package Not Found' }],
    [v2(p), U, '_', 400, { message: "400 Bad request - channel can't be solely blank" }],
    [v2(p), '_', 'stable', 400, { message: "400 Bad request - username can't be solely blank" }],
    [v1i, '_', '_', 404, { message: '404 Not Found' }],
    [v1i, '_', 'stable', 404, { message: '404 Not Found' }],
    [v1i, U, '_', 400, { message: "400 Bad request - channel can't be solely blank" }],
  ])('%s with %s/%s → %i', async (prefix, username, channel, status, body) => {
    const path = prefix === v1i ? `${prefix}/conans/hello/1.0/${username}/${channel}/search` : `${prefix}/conans/hello/1.0/${username}/${channel}/latest`;
    await svc.as(who).get(path).expect(status, body);
  });

  it('accepts `_`/`_` at project level for uploads (Conan 2 references without user/channel)', async () => {
    await svc.as(who).put(`${v2(p)}/conans/hello/1.0/_/_/revisions/${RREV}/files/conanfile.py`).send('x').expect(200);
    await svc.as(who).get(`${v2(p)}/conans/hello/1.0/_/_/latest`).expect(200);
    await svc.as(who).get(`${v2(p)}/conans/search?q=hello`).expect(200, { results: ['hello/1.0@_/_'] });
  });
});

describe('v1 package reference and revision parameters', () => {
  it('accepts any package reference segment in v1, only [A-Za-z0-9]+ in v2', async () => {
    await svc.as(who).get(`${v1p(p)}/conans/hello/1.0/${U}/stable/packages/a-b.c`).expect(200, {});
    await svc.as(who).get(`${v2(p)}/conans/hello/1.0/${U}/stable/revisions/${RREV}/packages/a-b/latest`).expect(400, { error: 'conan_package_reference is invalid' });
  });

  it('accepts a v1 package revision other than 0 (GitLab has no rule for it) and stores under 0', async () => {
    const F = `${v1p(p)}/files/hello/2.0/${U}/stable/0/package/${PKG_ID}`;
    await svc.as(who).put(`${F}/abc/conan_package.tgz`).send('b').expect(200);
    const got = await svc.as(who).get(`${F}/0/conan_package.tgz`).expect(200);
    expect(got.body.toString()).toBe('b');
    const stored = await svc.deps.db('conan_package_revisions as v')
      .join('conan_package_references as r', 'r.id', 'v.package_reference_id')
      .join('conan_packages as p', 'p.id', 'r.package_id')
      .where({ 'p.project_id': p.id, 'p.version': '2.0' })
      .pluck('v.revision');
    expect(stored).toEqual(['0']);
  });
});
