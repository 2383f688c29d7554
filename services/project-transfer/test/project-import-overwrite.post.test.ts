import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Actor } from '@anvil/auth';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');
const LIGHT = readFileSync(path.join(FIXTURES, 'light.tar.gz'));

let fleet: TransferFleet;
let owner: Actor;
let developer: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet({ PROJECT_IMPORT_LIMIT: '0' });
  [owner, developer] = await Promise.all([fleet.makeUser(), fleet.makeUser()]);
});
afterAll(async () => fleet?.stop());

function post(user: Actor, fields: Record<string, string>) {
  let req = fleet.transfer.as({ user }).post('/api/v4/projects/import');
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req.attach('file', LIGHT, 'light.tar.gz');
}

const projectsAt = (p: string) => fleet.identity.deps.db('projects').where({ path: p }).pluck('id');

describe('POST /projects/import with overwrite', () => {
  it('replaces the project at that path the caller may admin; without overwrite the path is taken', async () => {
    const old = await fleet.makeProject(owner, { path: 'replaced' });
    const taken = await post(owner, { path: 'replaced' });
    expect([taken.status, taken.body.message]).toEqual([400, expect.stringMatching(/has already been taken/)]);

    const res = await post(owner, { path: 'replaced', overwrite: 'true' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ path: 'replaced', path_with_namespace: `${owner.username}/replaced`, import_status: 'scheduled' });
    expect(res.body.id).not.toBe(old.id);
    expect(await projectsAt('replaced')).toEqual([res.body.id]);
    const status = await eventually(async () => {
      const body = (await fleet.transfer.as({ user: owner, project: await fleet.scope(res.body.id, owner) }).get(`/api/v4/projects/${res.body.id}/import`)).body;
      return ['finished', 'failed'].includes(body.import_status) && body;
    });
    expect(status.import_status).toBe('finished');
  });

  it('creates the project when nothing is at the path', async () => {
    const res = await post(owner, { path: 'fresh-overwrite', overwrite: 'true' });
    expect(res.status).toBe(201);
    expect(await projectsAt('fresh-overwrite')).toEqual([res.body.id]);
  });

  it('keeps a project the caller cannot admin: a group developer cannot overwrite: nothing is deleted and the create is refused', async () => {
    const root = await fleet.root();
    const group = await fleet.identity.as({ user: root }).post('/api/v4/groups').send({ name: 'ow group', path: `ow-group-${Date.now()}` }).expect(201);
    await fleet.identity.as({ user: root }).post(`/api/v4/groups/${group.body.id}/members`).send({ user_id: developer.id, access_level: 30 }).expect(201);
    const kept = await fleet.identity.as({ user: root }).post('/api/v4/projects').send({ path: 'kept', namespace_id: group.body.id }).expect(201);
    const res = await post(developer, { path: 'kept', namespace: group.body.full_path, overwrite: 'true' });
    expect([res.status, res.body]).toEqual([400, { message: 'Namespace is not valid' }]);
    expect(await fleet.identity.deps.db('projects').where({ path: 'kept', namespace_id: group.body.id }).pluck('id')).toEqual([kept.body.id]);
  });
});
