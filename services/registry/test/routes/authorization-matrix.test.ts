import { AccessLevel, type Actor, type ProjectScope, type Visibility } from '@anvil/auth';
import type { As } from '@anvil/testing';
import { asUser, project, recipePath, RREV, RREV2, seedV2, user, usernameOf, v1i, v1p, v2, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

interface Actorish {
  name: string;
  user: Actor | null;
  level: number;
}
const actors: Actorish[] = [
  { name: 'anonymous', user: null, level: 0 },
  { name: 'non-member', user: user('outsider'), level: 0 },
  { name: 'guest', user: user('guest'), level: AccessLevel.GUEST },
  { name: 'reporter', user: user('reporter'), level: AccessLevel.REPORTER },
  { name: 'developer', user: user('developer'), level: AccessLevel.DEVELOPER },
  { name: 'maintainer', user: user('maintainer'), level: AccessLevel.MAINTAINER },
  { name: 'admin', user: user('admin', true), level: 0 },
];

/** What the gateway forwards: the project only when the caller may see it (else it has already answered 404). */
function contextFor(a: Actorish, p: ProjectScope): As {
  const visible = p.visibility === 'public' || (p.visibility === 'internal' && !!a.user) || a.level >= AccessLevel.GUEST || !!a.user?.admin;
  const scoped = visible ? { ...p, access_level: a.level } : undefined;
  return a.user ? asUser(a.user, scoped) : { user: null, project: scoped };
}

type Expect = { read: number; search: number; upload: number; remove: number };
const expectations: Record<Visibility, Record<string, Expect>> = {
  private: {
    anonymous: { read: 404, search: 404, upload: 401, remove: 401 },
    'non-member': { read: 404, search: 404, upload: 404, remove: 404 },
    guest: { read: 200, search: 200, upload: 403, remove: 403 },
    reporter: { read: 200, search: 200, upload: 403, remove: 403 },
    developer: { read: 200, search: 200, upload: 200, remove: 403 },
    maintainer: { read: 200, search: 200, upload: 200, remove: 200 },
    admin: { read: 200, search: 200, upload: 200, remove: 200 },
  },
  internal: {
    anonymous: { read: 404, search: 404, upload: 401, remove: 401 },
    'non-member': { read: 200, search: 200, upload: 403, remove: 403 },
    guest: { read: 200, search: 200, upload: 403, remove: 403 },
    reporter: { read: 200, search: 200, upload: 403, remove: 403 },
    developer: { read: 200, search: 200, upload: 200, remove: 403 },
    maintainer: { read: 200, search: 200, upload: 200, remove: 200 },
    admin: { read: 200, search: 200, upload: 200, remove: 200 },
  },
  public: {
    anonymous: { read: 200, search: 200, upload: 401, remove: 401 },
    'non-member': { read: 200, search: 200, upload: 403, remove: 403 },
    guest: { read: 200, search: 200, upload: 403, remove: 403 },
    reporter: { read: 200, search: 200, upload: 403, remove: 403 },
    developer: { read: 200, search: 200, upload: 200, remove: 403 },
    maintainer: { read: 200, search: 200, upload: 200, remove: 200 },
    admin: { read: 200, search: 200, upload: 200, remove: 200 },
  },
};

describe.each(['private', 'internal', 'public'] as Visibility[])('authorization on a %s project', (visibility) => {
  it.each(actors.map((a) => [a.name, a] as const))('%s', async (_name, a) => {
    const p = project(visibility, 0);
    await seedV2(svc, p, asUser(user('seed'), { ...p, access_level: AccessLevel.OWNER }));
    const as = contextFor(a, p);
    const want = expectations[visibility][a.name];
    const R = recipePath(p);
    const got: Expect = { read: 0, search: 0, upload: 0, remove: 0 };

    const reads = await Promise.all([
      svc.as(as).get(`${v2(p)}/${R}/latest`),
      svc.as(as).get(`${v2(p)}/${R}/revisions/${RREV}/files/conanfile.py`),
      svc.as(as).get(`${v1p(p)}/${R}/download_urls`),
      svc.as({ ...as, project: as.project }).get(`${v1i}/${R}/digest`),
    ]);
    expect(new Set(reads.map((r) => r.status)).size).toBe(1);
    got.read = reads[0].status;
    got.search = (await svc.as(as).get(`${v2(p)}/conans/search?q=hello`)).status;
    got.upload = (await svc.as(as).put(`${v2(p)}/${R}/revisions/${RREV2}/files/conanfile.py`).send('x')).status;
    got.remove = (await svc.as(as).delete(`${v2(p)}/${R}/revisions/${RREV}`)).status;
    expect(got).toEqual(want);

    const failure = await svc.as(as).delete(`${v2(p)}/${R}/revisions/${RREV}`);
    if (want.remove === 403) expect(failure.body).toEqual({ message: '403 Forbidden' });
    if (want.remove === 401) expect(failure.body).toEqual({ message: '401 Unauthorized' });
    if (want.read === 404) expect(reads[0].body).toEqual({ message: '404 Project Not Found' });
    const remaining = await svc.deps.db('conan_recipe_revisions as r').join('conan_packages as k', 'k.id', 'r.package_id').where('k.project_id', p.id).pluck('r.revision');
    expect(remaining.includes(RREV)).toBe(want.remove !== 200);
    void usernameOf;
  });
});

describe('defence in depth: a private project forwarded without membership', () => {
  it('still answers 404 to a non-member and 404 to nobody', async () => {
    const p = project('private', 0);
    await svc.as(asUser(user('x'), p)).get(`${v2(p)}/${recipePath(p)}/latest`).expect(404, { message: '404 Project Not Found' });
    await svc.as({ user: null, project: p }).get(`${v2(p)}/${recipePath(p)}/latest`).expect(404, { message: '404 Project Not Found' });
  });

  it('treats Basic username:password (no token) as nobody', async () => {
    const p = project('private', AccessLevel.OWNER);
    await svc.as({ user: user('pw'), auth: 'basic', scopes: ['api'], project: p }).get(`${v2(p)}/${recipePath(p)}/latest`).expect(404, { message: '404 Project Not Found' });
    await svc.as({ user: user('pw'), auth: 'basic', scopes: ['api'], project: p }).put(`${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`).send('x').expect(401, { message: '401 Unauthorized' });
    expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
  });

  it('refuses writes with a read_api token (403 insufficient_scope) and allows its reads', async () => {
    const p = project('private', AccessLevel.OWNER);
    const ro = asUser(user('ro'), p, { scopes: ['read_api'] });
    await svc.as(ro).get(`${v2(p)}/${recipePath(p)}/latest`).expect(404, { message: '404 Package Not Found' });
    const r = await svc.as(ro).put(`${v2(p)}/${recipePath(p)}/revisions/${RREV}/files/conanfile.py`).send('x').expect(403);
    expect(r.body).toEqual({ error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope: 'api' });
  });
});
