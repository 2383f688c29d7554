import { AccessLevel, type ProjectScope } from '@anvil/auth';
import { asUser, PKG_ID, PREV, PREV2, project, recipePath, RREV, RREV2, seedV2, user, v2, registryForTests, type Registry } from '../helpers';

/**
 * GitLab's limits on the v2 routes: a delete that would remove more than 1000 files is refused with
 * 422 and removes nothing; revision lists stop at the newest 1000; deletes honour
 * `If-Unmodified-Since`. Rows beyond what a test can upload in reasonable time are inserted directly.
 */
let svc: Registry;
registryForTests((s) => (svc = s));

const owner = user('owner');
const setup = async () => {
  const p = project('private', AccessLevel.MAINTAINER);
  const who = asUser(owner, p);
  const R = `${v2(p)}/${recipePath(p)}`;
  await seedV2(svc, p, who);
  return { p, who, R, PR: `${R}/revisions/${RREV}/packages/${PKG_ID}` };
};

/** The columns a file record copies from the first seeded package file of `p` (revision RREV: its slot, its digests). */
async function seededPackageFile(p: ProjectScope) {
  const columns = ['package_id', 'project_id', 'file_type', 'recipe_revision_id', 'package_reference_id', 'package_revision_id', 'file_store', 'size', 'file_md5', 'file_sha1', 'file_sha256'];
  return svc.deps.db('conan_files').where({ project_id: p.id, file_name: 'conan_package.tgz' }).orderBy('id').first(columns);
}

/** Adds `n` file records (no objects) to the package revision the seeded package file is in. */
async function addFiles(p: ProjectScope, n: number): Promise<void> {
  const row = await seededPackageFile(p);
  const rows = Array.from({ length: n }, (_, i) => ({ ...row, file_name: `extra-${i}.bin`, storage_key: `conan/test-only/${p.id}/${i}` }));
  await svc.deps.db.batchInsert('conan_files', rows, 500);
}

const fileCount = async (p: ProjectScope) => Number((await svc.deps.db('conan_files').where({ project_id: p.id }).count('* as n').first())!.n);
const TOO_MANY = { message: 'Cannot delete more than 1000 files' };

describe('deleting more than 1000 files: 422, nothing removed', () => {
  it('DELETE RR of the only revision (the whole package)', async () => {
    const { p, who, R } = await setup();
    await addFiles(p, 996);
    await svc.as(who).delete(`${R}/revisions/${RREV}`).expect(422, TOO_MANY);
    expect(await fileCount(p)).toBe(1001);
    await svc.as(who).get(`${R}/latest`).expect(200);
  });

  it('DELETE RR of one of several revisions', async () => {
    const { p, who, R } = await setup();
    await seedV2(svc, p, who, { rrev: RREV2 });
    await addFiles(p, 996);
    await svc.as(who).delete(`${R}/revisions/${RREV}`).expect(422, TOO_MANY);
    expect(await fileCount(p)).toBe(1006);
    const r = await svc.as(who).get(`${R}/revisions`).expect(200);
    expect(r.body.revisions.map((x: { revision: string }) => x.revision)).toEqual([RREV2, RREV]);
    // the other revision, with its five files, can go
    await svc.as(who).delete(`${R}/revisions/${RREV2}`).expect(200);
    expect(await fileCount(p)).toBe(1001);
  });

  it('DELETE PRR, and exactly 1000 files may go', async () => {
    const { p, who, R, PR } = await setup();
    await addFiles(p, 998);
    await svc.as(who).delete(`${PR}/revisions/${PREV}`).expect(422, TOO_MANY);
    expect(await fileCount(p)).toBe(1003);
    await svc.as(who).get(`${PR}/latest`).expect(200).then((x) => expect(x.body.revision).toBe(PREV));
    await svc.deps.db('conan_files').where({ project_id: p.id, file_name: 'extra-0.bin' }).delete();
    await svc.as(who).delete(`${PR}/revisions/${PREV}`).expect(200);
    // the package revision's 1000 files are gone; the recipe's two stay
    expect(await fileCount(p)).toBe(2);
    await svc.as(who).get(`${R}/search`).expect(200, {});
  });
});

describe('revision lists stop at the newest 1000', () => {
  const hex = (i: number, len: number) => i.toString(16).padStart(len, '0');

  it('R/revisions', async () => {
    const { p, who, R } = await setup();
    const { package_id } = await seededPackageFile(p);
    // ids ascend in insertion order: revision i was created after revision i - 1
    await svc.deps.db.batchInsert('conan_recipe_revisions', Array.from({ length: 1000 }, (_, i) => ({ package_id, revision: hex(i + 1, 32) })), 500);
    const r = await svc.as(who).get(`${R}/revisions`).expect(200);
    expect(r.body.revisions).toHaveLength(1000);
    expect(r.body.revisions[0].revision).toBe(hex(1000, 32));
    expect(r.body.revisions[999].revision).toBe(hex(1, 32));
    expect(r.body.revisions.some((x: { revision: string }) => x.revision === RREV)).toBe(false);
    await svc.as(who).get(`${R}/latest`).expect(200).then((x) => expect(x.body.revision).toBe(hex(1000, 32)));
  });

  it('PR/revisions', async () => {
    const { p, who, PR } = await setup();
    const { package_reference_id } = await seededPackageFile(p);
    await svc.deps.db.batchInsert('conan_package_revisions', Array.from({ length: 1000 }, (_, i) => ({ package_reference_id, revision: hex(i + 1, 40) })), 500);
    const r = await svc.as(who).get(`${PR}/revisions`).expect(200);
    expect(r.body.revisions).toHaveLength(1000);
    expect(r.body.revisions[0].revision).toBe(hex(1000, 40));
    expect(r.body.revisions.some((x: { revision: string }) => x.revision === PREV)).toBe(false);
  });
});

describe('DELETE PRR and If-Unmodified-Since', () => {
  it('answers 412 when the revision was created after that time, and deletes when it was not', async () => {
    const { who, PR } = await setup();
    await svc.as(who).delete(`${PR}/revisions/${PREV}`).set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT').expect(412, { message: '412 Precondition Failed' });
    await svc.as(who).get(`${PR}/latest`).expect(200);
    await svc.as(who).delete(`${PR}/revisions/${PREV}`).set('If-Unmodified-Since', new Date(Date.now() + 60_000).toUTCString()).expect(200);
    await svc.as(who).get(`${PR}/latest`).expect(404, { message: '404 Revision Not Found' });
  });
});

describe('deletes of a package that is not there', () => {
  it('answer 404 Package Not Found', async () => {
    const p = project('private', AccessLevel.MAINTAINER);
    const who = asUser(owner, p);
    const R = `${v2(p)}/${recipePath(p, 'absent')}`;
    await svc.as(who).delete(`${R}/revisions/${RREV}`).expect(404, { message: '404 Package Not Found' });
    await svc.as(who).delete(`${R}/revisions/${RREV}/packages/${PKG_ID}/revisions/${PREV2}`).expect(404, { message: '404 Package Not Found' });
  });
});
