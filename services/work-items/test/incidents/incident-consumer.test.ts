import { randomUUID } from 'node:crypto';
import { AlertEvents, type AlertEventV1 } from '@anvil/events';
import type { TestService } from '@anvil/testing';
import { AccessLevel, startWorkItems, World } from '../support/world';
import { published } from '../support/published';

describe('incidents from alerts (queue work-items.incidents)', () => {
  let svc: TestService;
  let world: World;
  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
  });
  afterAll(() => svc?.stop());

  let nextAlert = 500;
  const alertEvent = (projectId: number, authorId: number, change: Partial<AlertEventV1> = {}): AlertEventV1 => ({
    id: nextAlert++, iid: 1, project_id: projectId, title: 'CPU usage high', description: 'idle below 10%', severity: 'high', status: 'triggered',
    started_at: '2026-11-25T10:00:00.000Z', ended_at: null, event_count: 1, fingerprint: 'f'.repeat(40), monitoring_tool: 'Prometheus', service: null,
    hosts: ['host-a'], environment: 'production', incident_markdown: '**Runbook:** restart it', issue_iid: null, create_issue: true,
    auto_close_incident: true, incident_author_id: authorId, ...change,
  });
  const deliver = async (type: string, data: AlertEventV1, id = randomUUID()) => {
    await svc.deps.bus.publish({ id, type, occurred_at: new Date().toISOString(), producer: 'alerting', version: 1, data });
    const until = Date.now() + 5000;
    while (Date.now() < until && !(await svc.deps.db('inbox').where({ event_id: id }).first())) await new Promise((r) => setTimeout(r, 10));
  };
  const incidents = (projectId: number) => svc.deps.db('issues').where({ project_id: projectId, issue_type: 'incident' }).orderBy('iid');

  it('opens an incident issue for a new alert, announces it with the alert id, and closes it when the alert resolves', async () => {
    const owner = await world.user('incident-owner');
    const project = await world.project('monitored');
    await world.member(project, owner, AccessLevel.MAINTAINER);
    const alert = alertEvent(project.id, owner.id);
    await deliver(AlertEvents.created, alert);
    const [issue] = await incidents(project.id);
    expect(issue).toMatchObject({ title: 'CPU usage high', state: 'opened', author_id: owner.id, severity: 'high', iid: 1 });
    expect(issue.description).toBe(
      '#### Summary\n\n**Start time:** 2026-11-25T10:00:00.000Z  \n**Severity:** high  \n**Monitoring tool:** Prometheus  \n**Hosts:** host-a  \n**Environment:** production'
      + '\n\n**Description:** idle below 10%\n\n---\n\n**Runbook:** restart it',
    );
    const shown = (await world.onProject(project, owner).get(`/api/v4/projects/${project.id}/issues/1`).expect(200)).body;
    expect(shown).toMatchObject({ issue_type: 'incident', type: 'INCIDENT', title: 'CPU usage high' });
    expect((await published(svc, 'work-items.incident.created')).map((e) => e.data)).toContainEqual({ alert_id: alert.id, project_id: project.id, issue_id: issue.id, issue_iid: 1 });
    expect(await published(svc, 'work-items.issue.created', { id: issue.id })).toHaveLength(1);

    await deliver(AlertEvents.resolved, { ...alert, status: 'resolved', ended_at: '2026-11-25T11:00:00.000Z' });
    expect((await incidents(project.id))[0]).toMatchObject({ state: 'closed', closed_by_id: owner.id });
    expect(await published(svc, 'work-items.issue.closed', { id: issue.id })).toHaveLength(1);
  });

  it('opens nothing when create_issue is off, and one incident for a redelivered event', async () => {
    const project = await world.project('quiet');
    const owner = await world.user('quiet-owner');
    await deliver(AlertEvents.created, alertEvent(project.id, owner.id, { create_issue: false }));
    expect(await incidents(project.id)).toEqual([]);
    const alert = alertEvent(project.id, owner.id);
    const id = randomUUID();
    await deliver(AlertEvents.created, alert, id);
    await deliver(AlertEvents.created, alert, id);
    await deliver(AlertEvents.created, alert);
    expect(await incidents(project.id)).toHaveLength(1);
  });

  it('leaves the incident open when auto_close_incident is off', async () => {
    const project = await world.project('manual-close');
    const owner = await world.user('manual-owner');
    const alert = alertEvent(project.id, owner.id);
    await deliver(AlertEvents.created, alert);
    await deliver(AlertEvents.resolved, { ...alert, status: 'resolved', auto_close_incident: false });
    expect((await incidents(project.id)).map((i) => i.state)).toEqual(['opened']);
  });
});
