import { AccessLevel, type ProjectScope } from '@anvil/auth';
import { anon, asUser, md5, PKG_ID, project, user, usernameOf, v1i, v1p, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

const owner = user('owner');

describe.each([
  ['instance', () => v1i],
  ['project', (p: ProjectScope) => v1p(p)],
])('v1 file routes at %s level', (_level, prefixOf) => {
  const setup = (visibility: 'public' | 'private' = 'private', access: number = AccessLevel.DEVELOPER) => {
    const p = project(visibility, access);
    const F = `${prefixOf(p)}/files/hello/1.0/${usernameOf(p)}/stable/0`;
    return { p, F, who: asUser(owner, p) };
  };

  describe('PUT files/…/0/export/:file_name', () => {
    it('stores a recipe file under revision 0 and answers the file record', async () => {
      const { p, F, who } = setup();
      const r = await svc.as(who).put(`${F}/export/conanfile.py`).send('abc').expect(200);
      expect(r.body).toMatchObject({ file_name: 'conanfile.py', size: 3, file_md5: md5('abc'), project_id: p.id, status: 'default' });
      const rev = await svc.deps.db('conan_recipe_revisions as r').join('conan_packages as p', 'p.id', 'r.package_id').where('p.project_id', p.id).pluck('revision');
      expect(rev).toEqual(['0']);
    });

    it('answers Conan 1’s empty X-Checksum-Deploy probe with 200 null and stores no file', async () => {
      const { p, F, who } = setup();
      const r = await svc.as(who).put(`${F}/export/conanfile.py`).set('X-Checksum-Deploy', 'true').set('X-Checksum-Sha1', 'a'.repeat(40)).set('Content-Length', '0').expect(200);
      expect(r.text).toBe('null');
      expect(await svc.deps.db('conan_files').where({ project_id: p.id })).toEqual([]);
      expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toHaveLength(1);
    });

    it('refuses revisions other than 0, unknown files and bad recipe parts with 400', async () => {
      const { F, who } = setup();
      await svc.as(who).put(`${F.replace(/\/0$/, '/1')}/export/conanfile.py`).send('x').expect(400, { error: 'recipe_revision is invalid' });
      await svc.as(who).put(`${F}/export/other.txt`).send('x').expect(400, { error: 'file_name does not have a valid value' });
      await svc.as(who).put(`${F.replace('hello', 'h$llo')}/export/conanfile.py`).send('x').expect(400, { error: 'package_name is invalid' });
    });

    it('answers 401 to nobody, 403 to a reporter', async () => {
      const { p, F } = setup('public', AccessLevel.REPORTER);
      await svc.as(anon(p)).put(`${F}/export/conanfile.py`).send('x').expect(401, { message: '401 Unauthorized' });
      await svc.as(asUser(user(), p)).put(`${F}/export/conanfile.py`).send('x').expect(403, { message: '403 Forbidden' });
      expect(await svc.deps.db('conan_packages').where({ project_id: p.id })).toEqual([]);
    });
  });

  describe('GET files/…/0/export/:file_name', () => {
    it('streams the recipe file; 404 Not found for a missing one', async () => {
      const { F, who } = setup();
      await svc.as(who).put(`${F}/export/conanfile.py`).send('abc').expect(200);
      const r = await svc.as(who).get(`${F}/export/conanfile.py`).expect(200);
      expect(r.headers['content-type']).toBe('application/octet-stream');
      expect(r.headers['content-length']).toBe('3');
      expect(r.body.toString()).toBe('abc');
      await svc.as(who).get(`${F}/export/conan_sources.tgz`).expect(404, { message: '404 Not found' });
    });

    it('answers HEAD with the headers only', async () => {
      const { F, who } = setup();
      await svc.as(who).put(`${F}/export/conanfile.py`).send('abcd').expect(200);
      const r = await svc.as(who).head(`${F}/export/conanfile.py`).expect(200);
      expect(r.headers['content-length']).toBe('4');
    });
  });

  describe('PUT and GET files/…/0/package/:ref/0/:file_name', () => {
    it('round-trips a package file and records the conaninfo metadata', async () => {
      const { p, F, who } = setup('public');
      await svc.as(who).put(`${F}/package/${PKG_ID}/0/conaninfo.txt`).send('[settings]\n    os=Linux\n').expect(200);
      await svc.as(who).put(`${F}/package/${PKG_ID}/0/conan_package.tgz`).send('bin').expect(200);
      const r = await svc.as(anon(p)).get(`${F}/package/${PKG_ID}/0/conan_package.tgz`).expect(200);
      expect(r.body.toString()).toBe('bin');
      await svc.as(anon(p)).get(`${F}/package/other/0/conan_package.tgz`).expect(404, { message: '404 Not found' });
      const search = await svc.as(anon(p)).get(`${prefixOf(p)}/conans/hello/1.0/${usernameOf(p)}/stable/search`).expect(200);
      expect(search.body).toEqual({ [PKG_ID]: { settings: { os: 'Linux' } } });
    });

    it('replaces a file uploaded again: one row, the old object deleted', async () => {
      const { p, F, who } = setup();
      await svc.as(who).put(`${F}/package/${PKG_ID}/0/conan_package.tgz`).send('one').expect(200);
      const [first] = await svc.deps.db('conan_files').where({ project_id: p.id }).pluck('storage_key');
      await svc.as(who).put(`${F}/package/${PKG_ID}/0/conan_package.tgz`).send('two!').expect(200);
      const rows = await svc.deps.db('conan_files').where({ project_id: p.id });
      expect(rows).toHaveLength(1);
      expect(Number(rows[0].size)).toBe(4);
      for (let i = 0; i < 100 && (await svc.deps.storage.head(first)); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await svc.deps.storage.head(first)).toBeNull();
      const r = await svc.as(who).get(`${F}/package/${PKG_ID}/0/conan_package.tgz`).expect(200);
      expect(r.body.toString()).toBe('two!');
    });
  });
});
