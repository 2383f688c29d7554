import type { TestService } from '@anvil/testing';
import { bearer, fixture, startAlerting } from '../support/alerting';

describe('POST notify URLs with ALERT_NOTIFY_LIMIT', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startAlerting({ ALERT_NOTIFY_LIMIT: '3' });
  });
  afterAll(() => svc?.stop());

  it('answers 429 with Retry-After past the limit per project and minute; refused keys do not count', async () => {
    const f = fixture(svc);
    const i = await f.integration();
    for (let n = 0; n < 5; n++) await f.notify(i.url, { title: 'x' }, bearer('wrong')).expect(401);
    for (let n = 0; n < 3; n++) await f.notify(i.url, { title: `a${n}` }, bearer(i.token)).expect(200);
    const res = await f.notify(i.url, { title: 'over' }, bearer(i.token)).expect(429);
    expect(res.text).toBe('');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await svc.deps.db('alerts').where({ project_id: f.projectId, title: 'over' })).toEqual([]);
    const other = fixture(svc);
    const j = await other.integration();
    await other.notify(j.url, { title: 'b' }, bearer(j.token)).expect(200);
  });
});

describe('POST notify URLs without a limit (the default)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startAlerting();
  });
  afterAll(() => svc?.stop());

  it('never answers 429', async () => {
    const f = fixture(svc);
    const i = await f.integration();
    for (let n = 0; n < 30; n++) await f.notify(i.url, { title: 'x' }, bearer(i.token)).expect(200);
  });
});
