import { AccessLevel } from '@anvil/auth';
import { anon, asUser, PKG_ID, PREV, PREV2, project, recipePath, RREV, RREV2, seedV2, user, v2, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

const owner = user('owner');
const setup = async (visibility: 'public' | 'private' = 'private') => {
  const p = project(visibility, AccessLevel.MAINTAINER);
  const R = `${v2(p)}/${recipePath(p)}`;
  return { p, who: asUser(owner, p), R, PR: `${R}/revisions/${RREV}/packages/${PKG_ID}` };
};

describe('GET /projects/:id/packages/conan/v2/conans/PR/revisions', () => {
  it('lists package revisions newest first with the package reference', async () => {
    const { p, who, PR } = await setup();
    await seedV2(svc, p, who);
    await seedV2(svc, p, who, { prev: PREV2 });
    const r = await svc.as(who).get(`${PR}/revisions`).expect(200);
    expect(r.body.reference).toBe(`hello/1.0@group+project-${p.id}/stable#${RREV}:${PKG_ID}`);
    expect(r.body.revisions.map((x: { revision: string }) => x.revision)).toEqual([PREV2, PREV]);
  });

  it('answers 200 with no revisions for an unknown recipe revision or reference, 404 for an unknown package', async () => {
    const { p, who, R, PR } = await setup();
    await svc.as(who).get(`${PR}/revisions`).expect(404, { message: '404 Package Not Found' });
    await seedV2(svc, p, who);
    const r = await svc.as(who).get(`${R}/revisions/${RREV2}/packages/${PKG_ID}/revisions`).expect(200);
    expect(r.body.revisions).toEqual([]);
    await svc.as(who).get(`${R}/revisions/${RREV}/packages/other/revisions`).expect(200).then((x) => expect(x.body.revisions).toEqual([]));
  });

  it('refuses a package reference with other characters', async () => {
    const { who, R } = await setup();
    await svc.as(who).get(`${R}/revisions/${RREV}/packages/pk-g/revisions`).expect(400, { error: 'conan_package_reference is invalid' });
  });
});

describe('GET /projects/:id/packages/conan/v2/conans/PR/latest', () => {
  it('returns the newest package revision', async () => {
    const { p, who, PR } = await setup();
    await seedV2(svc, p, who);
    await seedV2(svc, p, who, { prev: PREV2 });
    const r = await svc.as(who).get(`${PR}/latest`).expect(200);
    expect(r.body).toEqual({ revision: PREV2, time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/) });
  });

  it('answers 404 Revision Not Found when there is none', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).get(`${R}/revisions/${RREV}/packages/nothere/latest`).expect(404, { message: '404 Revision Not Found' });
  });
});

describe('PUT and GET /projects/:id/packages/conan/v2/conans/PRR/files/:file_name', () => {
  it('round-trips a package file and records its conaninfo metadata', async () => {
    const { p, who, R, PR } = await setup('public');
    await seedV2(svc, p, who);
    const got = await svc.as(anon(p)).get(`${PR}/revisions/${PREV}/files/conan_package.tgz`).expect(200);
    expect(got.body.toString()).toBe('tgz-bytes');
    expect(got.headers['content-disposition']).toContain('filename="conan_package.tgz"');
    const search = await svc.as(anon(p)).get(`${R}/search`).expect(200);
    expect(search.body).toEqual({ [PKG_ID]: { settings: { os: 'Linux', arch: 'x86_64' }, options: { shared: 'False' }, requires: { 'zlib/1.2.Z': null } } });
  });

  it('answers 404 Not found for an unknown package revision, 403 to a reporter on PUT', async () => {
    const { p, who, PR } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).get(`${PR}/revisions/${PREV2}/files/conan_package.tgz`).expect(404, { message: '404 Not found' });
    const rp = { ...p, access_level: AccessLevel.REPORTER };
    await svc.as(asUser(user(), rp)).put(`${PR}/revisions/${PREV}/files/conan_package.tgz`).send('x').expect(403, { message: '403 Forbidden' });
    const kept = await svc.as(who).get(`${PR}/revisions/${PREV}/files/conan_package.tgz`).expect(200);
    expect(kept.body.toString()).toBe('tgz-bytes');
  });

  it('refuses a package revision that is not a hash', async () => {
    const { who, PR } = await setup();
    await svc.as(who).put(`${PR}/revisions/0/files/conan_package.tgz`).send('x').expect(400, { error: 'package_revision is invalid' });
  });
});

describe('GET /projects/:id/packages/conan/v2/conans/PRR/files', () => {
  it('lists the package files', async () => {
    const { p, who, PR } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).get(`${PR}/revisions/${PREV}/files`).expect(200, { files: { 'conan_package.tgz': {}, 'conaninfo.txt': {}, 'conanmanifest.txt': {} } });
  });

  it('answers 404 Package files Not Found for an unknown revision', async () => {
    const { p, who, PR } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).get(`${PR}/revisions/${PREV2}/files`).expect(404, { message: '404 Package files Not Found' });
  });
});

describe('DELETE /projects/:id/packages/conan/v2/conans/PRR', () => {
  it('deletes one of several package revisions', async () => {
    const { p, who, PR } = await setup();
    await seedV2(svc, p, who);
    await seedV2(svc, p, who, { prev: PREV2 });
    await svc.as(who).delete(`${PR}/revisions/${PREV}`).expect(200);
    const r = await svc.as(who).get(`${PR}/revisions`).expect(200);
    expect(r.body.revisions.map((x: { revision: string }) => x.revision)).toEqual([PREV2]);
    await svc.as(who).get(`${PR}/revisions/${PREV}/files/conan_package.tgz`).expect(404, { message: '404 Not found' });
  });

  it('deletes the package reference (and its metadata) with its only revision', async () => {
    const { p, who, R, PR } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).delete(`${PR}/revisions/${PREV}`).expect(200);
    await svc.as(who).get(`${R}/search`).expect(200, {});
    await svc.as(who).get(`${R}/latest`).expect(200).then((x) => expect(x.body.revision).toBe(RREV));
    expect(await svc.deps.db('conan_package_references').where({ reference: PKG_ID }).join('conan_packages as p', 'p.id', 'conan_package_references.package_id').where('p.project_id', p.id)).toEqual([]);
  });

  it('answers 404 Package Revision Not Found and 403 to a developer', async () => {
    const { p, who, PR } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).delete(`${PR}/revisions/${PREV2}`).expect(404, { message: '404 Package Revision Not Found' });
    await svc.as(asUser(user(), { ...p, access_level: AccessLevel.DEVELOPER })).delete(`${PR}/revisions/${PREV}`).expect(403, { message: '403 Forbidden' });
    await svc.as(anon({ ...p, visibility: 'public' })).delete(`${PR}/revisions/${PREV}`).expect(401, { message: '401 Unauthorized' });
    await svc.as(who).get(`${PR}/latest`).expect(200).then((x) => expect(x.body.revision).toBe(PREV));
  });
});

describe('GET /projects/:id/packages/conan/v2/conans/R/revisions/:recipe_revision/search', () => {
  it('returns the metadata of that revision’s package references only', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who, { info: '[settings]\nos=Linux\n' });
    await seedV2(svc, p, who, { rrev: RREV2, pkgId: 'abc123', info: '[settings]\nos=Windows\n[recipe_hash]\nfeed\n' });
    await svc.as(who).get(`${R}/revisions/${RREV2}/search`).expect(200, { abc123: { settings: { os: 'Windows' }, recipe_hash: 'feed' } });
    await svc.as(who).get(`${R}/revisions/${RREV}/search`).expect(200, { [PKG_ID]: { settings: { os: 'Linux' } } });
    const all = await svc.as(who).get(`${R}/search`).expect(200);
    expect(Object.keys(all.body).sort()).toEqual([PKG_ID, 'abc123'].sort());
  });

  it('answers 404 Revision Not Found for an unknown revision', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who);
    await svc.as(who).get(`${R}/revisions/${RREV2}/search`).expect(404, { message: '404 Revision Not Found' });
  });

  it('keeps empty metadata for a conaninfo.txt that does not parse', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who, { info: '[settings\nbroken' });
    await svc.as(who).get(`${R}/revisions/${RREV}/search`).expect(200, { [PKG_ID]: {} });
  });
});
