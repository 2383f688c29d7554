import type { Actor } from '@anvil/auth';
import { createIteration } from '../../src/epics/epic-store';
import { AccessLevel, GroupInfo, ProjectInfo, World } from './world';

/** A `YYYY-MM-DD` date `days` from today (UTC). */
export function day(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

/** The shared fixture of the list tests. Issue iids in `p1` are documented next to each one. */
export interface Dataset {
  world: World;
  alice: Actor; bob: Actor; carol: Actor; dave: Actor; owner: Actor; admin: Actor;
  group: GroupInfo; sub: GroupInfo; other: GroupInfo;
  p1: ProjectInfo; p2: ProjectInfo; pub: ProjectInfo; archived: ProjectInfo; hidden: ProjectInfo;
  epicId: number; iterationId: number; currentIterationId: number;
  ids: Record<number, number>;
}

/**
 * Users: alice (reporter of p1), bob (developer of p1), carol (guest of p1), dave (no membership),
 * owner (owner of `group`), admin. `group` (private) holds p1 and the subgroup `sub` with p2;
 * `other` (public) holds `pub` (public); `archived` is an archived project in `group`; `hidden`
 * is a private project of `other` nobody here is a member of.
 *
 * p1 issues (iid: what makes it special):
 *  1 alice  "Login fails"     bug,ui      assignee bob    milestone v1 (upcoming, started)  due today     weight 1  thumbsup by alice
 *  2 bob    "Crash on save"   bug         -               milestone v2 (future, not started) due tomorrow  closed by alice
 *  3 alice  "UI polish"       ui          assignee carol  -                                 -             weight 3  tada by alice, epic, iteration (current)
 *  4 bob    "Secret plan"     backend     -               milestone old (past)              overdue       confidential
 *  5 carol  "Outage incident" priority    assignee bob+carol milestone Q1 (group, upcoming)  in 10 days    incident, health at_risk
 *  6 owner  "Docs"            -           -               -                                 -             created 2020-01-01
 */
export async function seedDataset(world: World): Promise<Dataset> {
  const [alice, bob, carol, dave, owner] = await Promise.all(['alice', 'bob', 'carol', 'dave', 'owner'].map((u) => world.user(u)));
  const admin = await world.user('admin', { admin: true });
  const group = await world.group('grp');
  const sub = await world.group('sub', { parent: group });
  const other = await world.group('oth', { visibility: 'public' });
  const p1 = await world.project('p1', { group });
  const p2 = await world.project('p2', { group: sub });
  const pub = await world.project('pub', { group: other, visibility: 'public' });
  const archived = await world.project('arch', { group });
  const hidden = await world.project('hidden', { group: other });
  await world.member(group, owner, AccessLevel.OWNER);
  await world.member(p1, alice, AccessLevel.REPORTER);
  await world.member(p1, bob, AccessLevel.DEVELOPER);
  await world.member(p1, carol, AccessLevel.GUEST);

  const P = (u: Actor) => world.onProject(p1, u);
  const G = (u: Actor) => world.onGroup(group, u);
  const mid = async (title: string, due: string, start: string) => (await P(owner).post(`/api/v4/projects/${p1.id}/milestones`).send({ title, due_date: due, start_date: start }).expect(201)).body.id;
  const v1 = await mid('v1', day(10), day(-5));
  const v2 = await mid('v2', day(30), day(5));
  const old = await mid('old', day(-10), day(-20));
  const q1 = (await G(owner).post(`/api/v4/groups/${group.id}/milestones`).send({ title: 'Q1', due_date: day(20), start_date: day(-1) }).expect(201)).body.id;
  await G(owner).post(`/api/v4/groups/${group.id}/labels`).send({ name: 'priority', color: '#FF0000', description: 'urgent' }).expect(201);
  await P(owner).post(`/api/v4/projects/${p1.id}/labels`).send({ name: 'bug', color: '#d9534f', priority: 1 }).expect(201);
  await P(owner).post(`/api/v4/projects/${p1.id}/labels`).send({ name: 'ui', color: '#eeeeee', priority: 2 }).expect(201);
  const epicId = (await G(owner).post(`/api/v4/groups/${group.id}/epics`).send({ title: 'Big epic' }).expect(201)).body.id;
  const iteration = await createIteration(world.svc.deps.db, { group_id: group.id, title: 'Sprint 1', start_date: day(-3), due_date: day(4), state: 2 });
  const later = await createIteration(world.svc.deps.db, { group_id: group.id, title: 'Sprint 2', start_date: day(5), due_date: day(12), state: 1 });

  const ids: Record<number, number> = {};
  const create = async (u: Actor, body: Record<string, unknown>) => {
    const res = await P(u).post(`/api/v4/projects/${p1.id}/issues`).send(body).expect(201);
    ids[res.body.iid] = res.body.id;
    return res.body;
  };
  await create(alice, { title: 'Login fails', description: 'cannot sign in at all', labels: 'bug,ui', assignee_ids: [bob.id], milestone_id: v1, due_date: day(0), weight: 1 });
  await create(bob, { title: 'Crash on save', description: 'the editor dies', due_date: day(1) });
  await P(alice).put(`/api/v4/projects/${p1.id}/issues/2`).send({ labels: 'bug', milestone_id: v2, state_event: 'close' }).expect(200);
  await create(alice, { title: 'UI polish', labels: ['ui'], assignee_ids: [carol.id], weight: 3, epic_id: epicId, iteration_id: iteration.id });
  await create(bob, { title: 'Secret plan', description: 'nobody may know', confidential: true, milestone_id: old, due_date: day(-3) });
  await P(alice).put(`/api/v4/projects/${p1.id}/issues/4`).send({ labels: 'backend' }).expect(200);
  await create(carol, { title: 'Outage incident', issue_type: 'incident' });
  await P(alice).put(`/api/v4/projects/${p1.id}/issues/5`).send({ labels: 'priority', assignee_ids: [bob.id, carol.id], milestone_id: q1, due_date: day(10), health_status: 'at_risk' }).expect(200);
  await create(owner, { title: 'Docs', created_at: '2020-01-01T00:00:00.000Z' });
  await P(alice).post(`/api/v4/projects/${p1.id}/issues/1/award_emoji`).send({ name: 'thumbsup' }).expect(201);
  await P(alice).post(`/api/v4/projects/${p1.id}/issues/3/award_emoji`).send({ name: 'tada' }).expect(201);

  await world.onProject(p2, owner).post(`/api/v4/projects/${p2.id}/issues`).send({ title: 'Subgroup issue' }).expect(201);
  await world.onProject(archived, owner).post(`/api/v4/projects/${archived.id}/issues`).send({ title: 'Archived issue' }).expect(201);
  await world.archive(archived);
  await world.onProject(archived, owner).post(`/api/v4/projects/${archived.id}/issues`).send({ title: 'Too late' }).expect(403);
  await world.onProject(pub, dave).post(`/api/v4/projects/${pub.id}/issues`).send({ title: 'Public issue' }).expect(201);
  await world.onProject(hidden, admin).post(`/api/v4/projects/${hidden.id}/issues`).send({ title: 'Hidden issue' }).expect(201);
  void later;
  return { world, alice, bob, carol, dave, owner, admin, group, sub, other, p1, p2, pub, archived, hidden, epicId, iterationId: iteration.id, currentIterationId: iteration.id, ids };
}
