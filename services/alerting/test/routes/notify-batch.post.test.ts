import { hashToken } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { CommitBatcher } from '../../src/notify/commit-batcher';
import { bearer, fixture, Fixture, published, startAlerting } from '../support/alerting';

describe('POST notify URLs: alerts stored in batches (group commit)', () => {
  let svc: TestService;
  let f: Fixture;
  let integration: Awaited<ReturnType<Fixture['integration']>>;
  beforeAll(async () => {
    svc = await startAlerting();
  });
  beforeEach(async () => {
    f = fixture(svc);
    integration = await f.integration();
  });
  afterAll(() => svc?.stop());

  const post = (body: unknown, key = integration.token) => f.notify(integration.url, body, bearer(key));
  const rows = () => svc.deps.db('alerts').where({ project_id: f.projectId }).orderBy('iid');

  it('new, repeated, resolving and shared new alerts posted together each get their answer, and what is stored is exact', async () => {
    for (let i = 0; i < 6; i++) await post({ title: `old-${i}`, fingerprint: `old-${i}` }).expect(200, [{ iid: i + 1, title: `old-${i}` }]);
    const posts = [
      ...Array.from({ length: 10 }, () => ({ body: { title: 'old-0', fingerprint: 'old-0' }, answer: [{ iid: 1, title: 'old-0' }] })),
      ...Array.from({ length: 5 }, (_, i) => ({ body: { title: `old-${i + 1}`, fingerprint: `old-${i + 1}`, end_time: '2026-11-25T12:00:00Z' }, answer: [{ iid: i + 2, title: `old-${i + 1}` }] })),
      ...Array.from({ length: 10 }, (_, i) => ({ body: { title: `new-${i}`, fingerprint: `new-${i}` }, answer: null })),
      ...Array.from({ length: 8 }, () => ({ body: { title: 'shared', fingerprint: 'shared' }, answer: null })),
    ].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(posts.map((p) => post(p.body)));
    expect(answers.map((r) => r.status)).toEqual(Array(posts.length).fill(200));
    posts.forEach((p, i) => p.answer && expect(answers[i].body).toEqual(p.answer));
    const stored = await rows();
    expect(stored.map((r) => r.iid)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    const byTitle = Object.fromEntries(stored.map((r) => [r.title, r]));
    expect(byTitle['old-0']).toMatchObject({ event_count: 11, status: 'triggered' });
    for (let i = 1; i < 6; i++) expect(byTitle[`old-${i}`]).toMatchObject({ event_count: 1, status: 'resolved', ended_at: new Date('2026-11-25T12:00:00Z') });
    expect(byTitle.shared).toMatchObject({ event_count: 8, status: 'triggered' });
    const sharedIid = byTitle.shared.iid;
    posts.forEach((p, i) => p.body.title === 'shared' && expect(answers[i].body).toEqual([{ iid: sharedIid, title: 'shared' }]));
    for (let i = 0; i < 10; i++) expect(byTitle[`new-${i}`]).toMatchObject({ event_count: 1, status: 'triggered' });
    const events = (await published(svc, 'alerting.alert.')).filter((e) => e.data.project_id === f.projectId);
    expect(events.filter((e) => e.type === 'alerting.alert.resolved').map((e) => e.data.iid).sort()).toEqual([2, 3, 4, 5, 6]);
    const created = events.filter((e) => e.type === 'alerting.alert.created');
    expect(created).toHaveLength(17);
    for (const e of created) expect(e.data).toMatchObject({ status: 'triggered', event_count: 1, ended_at: null });
  });

  it('a payload that opens and resolves one alert announces it created as it was opened, then resolved', async () => {
    const body = { title: 'Blip', fingerprint: 'blip' };
    await Promise.all([post(body).expect(200), post(body).expect(200)]);
    await post({ ...body, end_time: '2026-11-25T12:00:00Z' }).expect(200);
    const events = (await published(svc, 'alerting.alert.')).filter((e) => e.data.project_id === f.projectId);
    expect(events.map((e) => [e.type, e.data.status, e.data.event_count])).toEqual([['alerting.alert.created', 'triggered', 1], ['alerting.alert.resolved', 'resolved', 2]]);
  });

  it('a key reset, a deactivation or a deletion by another replica (the row changed under this process) opens nothing at once', async () => {
    await post({ title: 'warm', fingerprint: 'warm' }).expect(200);
    const fresh = 'f'.repeat(32);
    await svc.deps.db('alert_integrations').where({ id: integration.id }).update({ token_digest: hashToken(fresh) });
    await post({ title: 'old key', fingerprint: 'k1' }).expect(401, '');
    await post({ title: 'new key', fingerprint: 'k2' }, fresh).expect(200, [{ iid: 2, title: 'new key' }]);
    await svc.deps.db('alert_integrations').where({ id: integration.id }).update({ active: false });
    await post({ title: 'inactive', fingerprint: 'k3' }, fresh).expect(401, '');
    await svc.deps.db('alert_integrations').where({ id: integration.id }).update({ active: true });
    await post({ title: 'active again', fingerprint: 'k4' }, fresh).expect(200, [{ iid: 3, title: 'active again' }]);
    await svc.deps.db('alert_integrations').where({ id: integration.id }).delete();
    await post({ title: 'deleted', fingerprint: 'k5' }, fresh).expect(401, '');
    expect((await rows()).map((r) => r.title)).toEqual(['warm', 'new key', 'active again']);
  });

  it('a key reset through the API stops the old key in this process at once, even with requests in flight', async () => {
    await post({ title: 'warm', fingerprint: 'warm' }).expect(200);
    const inFlight = Array.from({ length: 20 }, (_, i) => post({ title: `f-${i}`, fingerprint: `f-${i}` }));
    const reset = await f.as.maintainer.post(`/api/v4/projects/${f.projectId}/alert_management/http_integrations/${integration.id}/reset_token`).expect(200);
    const answers = await Promise.all(inFlight);
    const accepted = answers.filter((r) => r.status === 200).length;
    expect(answers.every((r) => r.status === 200 || r.status === 401)).toBe(true);
    await post({ title: 'after', fingerprint: 'after' }).expect(401, '');
    await post({ title: 'new', fingerprint: 'new' }, reset.body.token).expect(200);
    expect(await rows()).toHaveLength(accepted + 2);
  });
});

describe('CommitBatcher', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startAlerting();
    await svc.deps.db.raw('CREATE TABLE batch_probe (job integer NOT NULL)');
  });
  afterAll(async () => {
    await svc?.deps.db.raw('DROP TABLE IF EXISTS batch_probe');
    await svc?.stop();
  });

  it('stores jobs queued while a batch is in flight together; a failing job fails alone, the others are stored once', async () => {
    const batches: number[][] = [];
    const alone: number[] = [];
    const insert = (trx: any, job: number) => (job === 13 ? trx.raw('SELECT 1 / 0') : trx('batch_probe').insert({ job }));
    const batcher = new CommitBatcher<number, string>(svc.deps.db, {
      async batch(trx, jobs) {
        batches.push(jobs);
        for (const j of jobs) await insert(trx, j);
        return jobs.map((j) => `batched ${j}`);
      },
      async alone(trx, job) {
        alone.push(job);
        await insert(trx, job);
        return `alone ${job}`;
      },
    }, { maxJobs: 8, maxInFlight: 1 });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => batcher.run(i)));
    expect(results[13]).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/division by zero/) }) });
    results.forEach((r, i) => i !== 13 && expect(r.status).toBe('fulfilled'));
    expect(batches[0]).toEqual([0]);
    expect(batches.length).toBeLessThan(20);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(8);
    const failed = batches.find((b) => b.includes(13))!;
    expect(alone.sort((a, b) => a - b)).toEqual(failed);
    failed.forEach((j) => j !== 13 && expect(results[j]).toEqual({ status: 'fulfilled', value: `alone ${j}` }));
    const stored = (await svc.deps.db('batch_probe').select('job')).map((r) => r.job).sort((a, b) => a - b);
    expect(stored).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== 13));
  });

  it('answers no job before its batch has committed', async () => {
    let committed = false;
    const batcher = new CommitBatcher<number, boolean>(svc.deps.db, {
      async batch(trx, jobs) {
        trx.executionPromise.then(() => (committed = true), () => undefined);
        return jobs.map(() => true);
      },
      async alone() {
        return false;
      },
    }, { maxJobs: 4, maxInFlight: 1 });
    await batcher.run(1);
    expect(committed).toBe(true);
  });
});
