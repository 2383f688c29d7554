import type { TestService } from '@anvil/testing';
import { bearer, fixture, Fixture, startAlerting } from '../support/alerting';
import { amMessage, firing } from '../support/payloads';

describe('POST notify URLs concurrently', () => {
  let svc: TestService;
  let f: Fixture;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  it('100 parallel posts of one new fingerprint make one alert with 100 events and one created event', async () => {
    const integration = await f.integration();
    const answers = await Promise.all(Array.from({ length: 100 }, () => f.notify(integration.url, { title: 'Storm', fingerprint: 'storm-1' }, bearer(integration.token))));
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(new Set(answers.map((r) => JSON.stringify(r.body)))).toEqual(new Set([JSON.stringify([{ iid: 1, title: 'Storm' }])]));
    const rows = await svc.deps.db('alerts').where({ project_id: f.projectId });
    expect(rows.map((r) => [r.iid, r.event_count, r.status])).toEqual([[1, 100, 'triggered']]);
    const created = await svc.deps.db('outbox').where({ type: 'alerting.alert.created' }).whereRaw("data->>'project_id' = ?", [String(f.projectId)]);
    expect(created).toHaveLength(1);
    await f.notify(integration.url, { title: 'Next', fingerprint: 'storm-2' }, bearer(integration.token)).expect(200, [{ iid: 2, title: 'Next' }]);
  });

  it('parallel webhook messages with distinct and shared alerts keep iids dense and counts exact', async () => {
    const prom = await f.integration({ type: 'prometheus', name: 'Prometheus' });
    const shared = { ...firing, annotations: { title: 'shared' } };
    const messages = Array.from({ length: 20 }, (_, i) => amMessage([shared, { ...firing, annotations: { title: `own-${i}` } }]));
    await Promise.all(messages.map((m) => f.notify(prom.url, m, bearer(prom.token)).expect(200)));
    const rows = await svc.deps.db('alerts').where({ project_id: f.projectId }).where('iid', '>', 2).orderBy('iid');
    expect(rows.map((r) => r.iid)).toEqual(Array.from({ length: 21 }, (_, i) => i + 3));
    expect(rows.find((r) => r.title === 'shared')?.event_count).toBe(20);
  });
});
