import { randomUUID } from 'node:crypto';
import { IdentityEvents } from '@anvil/events';
import type { TestService } from '@anvil/testing';
import { bearer, fixture, startAlerting } from '../support/alerting';

describe('deleted projects (queue alerting.projects)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startAlerting();
  });
  afterAll(() => svc?.stop());

  it('removes the project’s integrations, alerts and settings, and nothing of other projects', async () => {
    const gone = fixture(svc);
    const kept = fixture(svc);
    const i = await gone.integration();
    const j = await kept.integration();
    await gone.notify(i.url, { title: 'a' }, bearer(i.token)).expect(200);
    await kept.notify(j.url, { title: 'b' }, bearer(j.token)).expect(200);
    await gone.as.maintainer.put(`/api/v4/projects/${gone.projectId}/alert_management/settings`).send({ create_issue: true }).expect(200);
    const id = randomUUID();
    await svc.deps.bus.publish({ id, type: IdentityEvents.projectDeleted, occurred_at: new Date().toISOString(), producer: 'identity', version: 1, data: { id: gone.projectId } });
    const until = Date.now() + 5000;
    while (Date.now() < until && !(await svc.deps.db('inbox').where({ event_id: id }).first())) await new Promise((r) => setTimeout(r, 10));
    for (const [table, keptRows] of [['alert_integrations', 1], ['alerts', 1], ['alert_settings', 0], ['alert_iids', 1]] as const) {
      expect(await svc.deps.db(table).where({ project_id: gone.projectId })).toEqual([]);
      expect(await svc.deps.db(table).where({ project_id: kept.projectId })).toHaveLength(keptRows);
    }
    await gone.notify(i.url, { title: 'a' }, bearer(i.token)).expect(401);
    await kept.notify(j.url, { title: 'b' }, bearer(j.token)).expect(200, [{ iid: 1, title: 'b' }]);
  });
});
