import type { Actor } from '@anvil/auth';
import { published } from '../support/published';
import { small, Small } from '../support/small';

describe('POST /projects/:id/issues/:issue_iid/notes', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  const note = (who: Actor | null, iid: number, body: Record<string, unknown>) => s.on(who).post(s.path(iid, '/notes')).send(body);

  it('creates a comment (201, Note entity) and counts it on the issue', async () => {
    const issue = await s.issue();
    const res = await note(s.guest, issue.iid, { body: 'Me too' }).expect(201);
    expect(res.body).toMatchObject({
      body: 'Me too', system: false, noteable_id: issue.id, noteable_type: 'Issue', noteable_iid: issue.iid, project_id: s.project.id,
      internal: false, confidential: false, commands_changes: {}, author: { id: s.guest.id },
    });
    expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.user_notes_count).toBe(1);
    const list = await s.on(s.guest).get(s.path(issue.iid, '/notes')).expect(200);
    expect(list.body.map((n: { body: string }) => n.body)).toEqual(['Me too']);
    expect(await published(s.svc, 'work-items.note.', { noteable_id: issue.id })).toEqual([{
      type: 'work-items.note.created',
      data: {
        id: res.body.id, noteable_type: 'Issue', noteable_id: issue.id, noteable_iid: issue.iid, project_id: s.project.id, author_id: s.guest.id, body: 'Me too',
        system: false, internal: false, created_at: res.body.created_at, updated_at: res.body.updated_at, actor_id: s.guest.id,
      },
    }]);
  });

  describe('/promote', () => {
    it('with only the command: promotes to an epic, persists no note, answers 202 with commands_changes', async () => {
      const issue = await s.issue({ title: 'Make it big', description: 'plan' });
      const res = await note(s.reporter, issue.iid, { body: '/promote' }).expect(202);
      expect(res.body).toEqual({ commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] });
      const epics = await s.world.onGroup(s.group, s.reporter).get(`/api/v4/groups/${s.group.id}/epics`).expect(200);
      expect(epics.body[0]).toMatchObject({ title: 'Make it big', description: 'plan', group_id: s.group.id });
      const after = await s.on(s.reporter).get(s.path(issue.iid)).expect(200);
      expect(after.body).toMatchObject({ state: 'closed', user_notes_count: 0, closed_by: { id: s.reporter.id } });
      const events = [...await published(s.svc, 'work-items.epic.', { id: epics.body[0].id }), ...await published(s.svc, 'work-items.note.', { noteable_id: issue.id })];
      expect(events.map((e) => [e.type, e.data.body ?? e.data.title])).toEqual([['work-items.epic.created', 'Make it big'], ['work-items.note.created', `promoted to epic &${epics.body[0].iid}`]]);
      expect((await published(s.svc, 'work-items.issue.closed', { id: issue.id })).length).toBe(1);
    });

    it('with other text: saves that text as the note, with commands_changes', async () => {
      const issue = await s.issue();
      const res = await note(s.reporter, issue.iid, { body: 'This is an epic\n/promote' }).expect(201);
      expect(res.body).toMatchObject({ body: 'This is an epic', commands_changes: { promote_to_epic: true } });
    });

    it('is plain text for a guest (not allowed) and on an already promoted issue', async () => {
      const issue = await s.issue();
      expect((await note(s.guest, issue.iid, { body: '/promote' }).expect(201)).body).toMatchObject({ body: '/promote', commands_changes: {} });
      expect((await note(s.reporter, issue.iid, { body: '/promote' }).expect(202)).body).toEqual({ commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] });
      expect((await note(s.reporter, issue.iid, { body: '/promote' }).expect(201)).body.commands_changes).toEqual({});
    });

    it('is plain text in a personal project (no group for the epic)', async () => {
      const personal = await s.world.project('mine');
      const owner = await s.world.user('me');
      await s.world.member(personal, owner, 50);
      const issue = (await s.world.onProject(personal, owner).post(`/api/v4/projects/${personal.id}/issues`).send({ title: 'x' }).expect(201)).body;
      const res = await s.world.onProject(personal, owner).post(`/api/v4/projects/${personal.id}/issues/${issue.iid}/notes`).send({ body: '/promote' }).expect(201);
      expect(res.body.body).toBe('/promote');
    });
  });

  it('needs authentication, a body and a readable issue', async () => {
    const issue = await s.issue({ confidential: true });
    await note(null, issue.iid, { body: 'x' }).expect(401, { message: '401 Unauthorized' });
    expect((await note(s.reporter, issue.iid, {}).expect(400)).body).toEqual({ error: 'body is missing' });
    expect((await note(s.outsider, issue.iid, { body: 'x' }).expect(404)).body).toEqual({ message: '404 Issue Not Found' });
  });
});
