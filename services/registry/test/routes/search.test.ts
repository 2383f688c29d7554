import { AccessLevel, type ProjectScope } from '@anvil/auth';
import { anon, asUser, project, user, usernameOf, v1p, v2, registryForTests, type Registry } from '../helpers';

let svc: Registry;
registryForTests((s) => (svc = s));

const owner = user('owner');
async function upload(p: ProjectScope, name: string, version: string, channel = 'stable') {
  await svc.as(asUser(owner, p)).put(`${v1p(p)}/files/${name}/${version}/${usernameOf(p)}/${channel}/0/export/conanfile.py`).send('x').expect(200);
}

describe('GET /projects/:id/packages/conan/v1|v2/conans/search', () => {
  const a = project('public', AccessLevel.MAINTAINER);
  const b = project('public', AccessLevel.MAINTAINER);
  beforeAll(async () => {
    await upload(a, 'hello', '1.0');
    await upload(a, 'hello', '1.1');
    await upload(a, 'Hello_World', '2.0');
    await upload(a, 'other', '1.0', 'testing');
    await upload(b, 'hello', '9.9');
  });
  const U = () => usernameOf(a);
  const search = (q: string, extra = '') => svc.as(anon(a)).get(`${v2(a)}/conans/search?q=${encodeURIComponent(q)}${extra}`);

  it.each<[string, string[]]>([
    ['hello', ['hello/1.1@U/stable', 'hello/1.0@U/stable']],
    ['hel*', ['Hello_World/2.0@U/stable', 'hello/1.1@U/stable', 'hello/1.0@U/stable']],
    ['*World', ['Hello_World/2.0@U/stable']],
    ['hello/1.0', ['hello/1.0@U/stable']],
    ['hello/1.*', ['hello/1.1@U/stable', 'hello/1.0@U/stable']],
    ['*/1.0', ['other/1.0@U/testing', 'hello/1.0@U/stable']],
    ['hello/1.0@someone+else/stable', ['hello/1.0@U/stable']],
    // the username is ignored at project level, wildcards in it included (instance level finds none)
    ['hello/1.0@some*/stable', ['hello/1.0@U/stable']],
    ['hello/*@*/*', ['hello/1.1@U/stable', 'hello/1.0@U/stable']],
    ['Hello_*', ['Hello_World/2.0@U/stable']],
    ['Hello%', []],
    ['*', []],
    ['*/*', []],
    ['nothing', []],
  ])('q=%s (only this project, most recent first)', async (q, expected) => {
    const r = await search(q).expect(200);
    expect(r.body).toEqual({ results: expected.map((s) => s.replace('U', U())) });
  });

  it('is case-sensitive with ignorecase=false', async () => {
    await search('Hello*', '&ignorecase=false').expect(200, { results: [`Hello_World/2.0@${U()}/stable`] });
    await search('Hello*', '&ignorecase=False').expect(200, { results: [`Hello_World/2.0@${U()}/stable`] });
  });

  it('answers the same at v1 project level', async () => {
    await svc.as(anon(a)).get(`${v1p(a)}/conans/search?q=other`).expect(200, { results: [`other/1.0@${U()}/testing`] });
  });

  it('refuses long terms, many wildcards and a missing q with 400', async () => {
    await search('a'.repeat(201)).expect(400, { message: '400 Bad request - Search term length must be less than 200 characters.' });
    await search('a*b*c*d*e*f*g').expect(400, { message: '400 Bad request - Too many wildcards in search term. Maximum is 5.' });
    await svc.as(anon(a)).get(`${v2(a)}/conans/search`).expect(400, { error: 'q is missing' });
  });

  it('answers 404 Project Not Found when the project is not visible', async () => {
    const hidden = project('private');
    await svc.as(anon(hidden)).get(`${v2(hidden)}/conans/search?q=hello`).expect(404, { message: '404 Project Not Found' });
  });

  it('returns at most 500 packages', async () => {
    const c = project('public', AccessLevel.MAINTAINER);
    const rows = Array.from({ length: 501 }, (_, i) => ({ project_id: c.id, name: 'many', version: `1.${i}`, username: usernameOf(c), channel: 'stable' }));
    await svc.deps.db('conan_packages').insert(rows);
    const r = await svc.as(anon(c)).get(`${v2(c)}/conans/search?q=many`).expect(200);
    expect(r.body.results).toHaveLength(500);
  });
});
