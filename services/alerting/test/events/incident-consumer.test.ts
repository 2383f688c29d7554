import { randomUUID } from 'node:crypto';
import { IncidentEvents } from '@anvil/events';
import type { TestService } from '@anvil/testing';
import { bearer, fixture, startAlerting } from '../support/alerting';

describe('incident links (queue alerting.incidents)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startAlerting();
  });
  afterAll(() => svc?.stop());

  const deliver = async (data: unknown, id = randomUUID()) => {
    await svc.deps.bus.publish({ id, type: IncidentEvents.created, occurred_at: new Date().toISOString(), producer: 'work-items', version: 1, data });
    const until = Date.now() + 5000;
    while (Date.now() < until && !(await svc.deps.db('inbox').where({ event_id: id }).first())) await new Promise((r) => setTimeout(r, 10));
  };

  it('records the incident’s iid on its alert, and only on that project’s alert', async () => {
    const f = fixture(svc);
    const i = await f.integration();
    await f.notify(i.url, { title: 'Down' }, bearer(i.token)).expect(200);
    const row = await svc.deps.db('alerts').where({ project_id: f.projectId, iid: 1 }).first();
    await deliver({ alert_id: Number(row.id), project_id: f.projectId + 1, issue_id: 1, issue_iid: 9 });
    expect((await f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts/1`).expect(200)).body.issue_iid).toBeNull();
    await deliver({ alert_id: Number(row.id), project_id: f.projectId, issue_id: 1, issue_iid: 4 });
    expect((await f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts/1`).expect(200)).body.issue_iid).toBe(4);
  });
});
