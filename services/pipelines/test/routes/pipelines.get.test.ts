import type { TestService } from '@anvil/testing';
import { PipelinesWorld, startPipelines } from '../support/pipelines';

describe('GET /projects/:id/pipelines', () => {
  let svc: TestService;
  let world: PipelinesWorld;
  const project = () => shared;
  let shared: ReturnType<PipelinesWorld['project']>;
  let ids: { main1: number; main2: number; feature: number; child: number };
  const list = (query = '', user = world.users.reporter) => world.as(user, project()).get(`/api/v4/projects/${project().id}/pipelines${query}`);
  const idsOf = (body: { id: number }[]) => body.map((p) => p.id);

  beforeAll(async () => {
    ({ svc, world } = await startPipelines());
    shared = world.project();
    await world.commit(shared);
    await world.commit(shared, { 'other.txt': 'x' }, 'main');
    const main1 = (await world.pipeline(shared)).id;
    await world.commit(shared, { 'f.txt': 'f' }, 'feature', 'main');
    const feature = (await world.as(world.users.maintainer, shared).post(`/api/v4/projects/${shared.id}/pipeline`).send({ ref: 'feature' }).expect(201)).body.id;
    await world.commit(shared, { 'later.txt': 'l' });
    const main2 = (await world.pipeline(shared)).id;
    await world.as(world.users.developer, shared).put(`/api/v4/projects/${shared.id}/pipelines/${main2}/metadata`).send({ name: 'Nightly' }).expect(200);
    await svc.deps.db('pipelines').where({ id: main1 }).update({ status: 'failed', yaml_errors: 'broken', updated_at: new Date('2020-01-01T00:00:00Z') });
    const [child] = await svc.deps.db('pipelines').insert({ project_id: shared.id, iid: 99, ref: 'main', sha: 'c'.repeat(40), before_sha: '0'.repeat(40), source: 'parent_pipeline', status: 'success', parent_pipeline_id: main2 }).returning('id');
    ids = { main1, main2, feature, child: child.id };
  });
  afterAll(() => svc?.stop());

  it('lists newest first as PipelineBasicWithMetadata, without child pipelines, with pagination headers', async () => {
    const res = await list().expect(200);
    expect(idsOf(res.body)).toEqual([ids.main2, ids.feature, ids.main1]);
    expect(Object.keys(res.body[0]).sort()).toEqual(['created_at', 'id', 'iid', 'name', 'project_id', 'ref', 'sha', 'source', 'status', 'updated_at', 'web_url']);
    expect(res.body[0]).toMatchObject({ name: 'Nightly', ref: 'main', source: 'api', status: 'pending' });
    expect(res.headers).toMatchObject({ 'x-total': '3', 'x-total-pages': '1', 'x-page': '1', 'x-per-page': '20' });
    const paged = await list('?per_page=1&page=2').expect(200);
    expect(idsOf(paged.body)).toEqual([ids.feature]);
    expect(paged.headers['x-next-page']).toBe('3');
  });

  it('filters by ref, sha, status, scope, source, name, username, yaml_errors and update time', async () => {
    const main2 = (await list(`?per_page=1`).expect(200)).body[0];
    expect(idsOf((await list('?ref=feature').expect(200)).body)).toEqual([ids.feature]);
    expect(idsOf((await list(`?sha=${main2.sha}`).expect(200)).body)).toEqual([ids.main2]);
    expect(idsOf((await list('?status=failed').expect(200)).body)).toEqual([ids.main1]);
    expect(idsOf((await list('?scope=finished').expect(200)).body)).toEqual([ids.main1]);
    expect(idsOf((await list('?scope=pending').expect(200)).body)).toEqual([ids.main2, ids.feature]);
    expect(idsOf((await list('?scope=branches').expect(200)).body)).toEqual([ids.main2, ids.feature]);
    expect(idsOf((await list('?scope=tags').expect(200)).body)).toEqual([]);
    expect(idsOf((await list('?source=parent_pipeline').expect(200)).body)).toEqual([ids.child]);
    expect(idsOf((await list('?name=Nightly').expect(200)).body)).toEqual([ids.main2]);
    expect(idsOf((await list('?username=maintainer').expect(200)).body)).toEqual([ids.feature]);
    expect(idsOf((await list('?username=nobody').expect(200)).body)).toEqual([]);
    expect(idsOf((await list('?yaml_errors=true').expect(200)).body)).toEqual([ids.main1]);
    expect(idsOf((await list('?yaml_errors=false').expect(200)).body)).toEqual([ids.main2, ids.feature]);
    expect(idsOf((await list('?updated_before=2021-01-01T00:00:00Z').expect(200)).body)).toEqual([ids.main1]);
    expect(idsOf((await list('?updated_after=2021-01-01T00:00:00Z').expect(200)).body)).toEqual([ids.main2, ids.feature]);
  });

  it('orders by id, status, ref, updated_at and user_id in either direction', async () => {
    expect(idsOf((await list('?sort=asc').expect(200)).body)).toEqual([ids.main1, ids.feature, ids.main2]);
    expect(idsOf((await list('?order_by=status&sort=asc').expect(200)).body)).toEqual([ids.main1, ids.feature, ids.main2]);
    expect(idsOf((await list('?order_by=ref&sort=asc').expect(200)).body)).toEqual([ids.feature, ids.main1, ids.main2]);
    expect(idsOf((await list('?order_by=updated_at').expect(200)).body)).toEqual([ids.main2, ids.feature, ids.main1]);
    const byUser = idsOf((await list('?order_by=user_id&sort=asc').expect(200)).body);
    const devFirst = world.users.developer.id < world.users.maintainer.id;
    expect(byUser).toEqual(devFirst ? [ids.main1, ids.main2, ids.feature] : [ids.feature, ids.main1, ids.main2]);
  });

  it('rejects invalid filter values with Grape 400s', async () => {
    await list('?status=bogus').expect(400, { error: 'status does not have a valid value' });
    await list('?order_by=name').expect(400, { error: 'order_by does not have a valid value' });
    await list('?scope=all').expect(400, { error: 'scope does not have a valid value' });
    await list('?source=nowhere').expect(400, { error: 'source does not have a valid value' });
    await list('?updated_after=yesterday').expect(400, { error: 'updated_after is invalid' });
  });

  it('is 403 for a guest of a private project and readable by anyone on a public one', async () => {
    await list('', world.users.guest).expect(403, { message: '403 Forbidden' });
    const pub = world.project('public');
    await world.commit(pub);
    const p = await world.pipeline(pub);
    for (const u of [null, world.users.guest, world.users.stranger]) {
      expect(idsOf((await world.as(u, pub).get(`/api/v4/projects/${pub.id}/pipelines`).expect(200)).body)).toEqual([p.id]);
    }
  });
});
