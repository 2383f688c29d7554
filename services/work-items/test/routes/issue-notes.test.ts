import { notesWorld, NotesWorld } from '../support/notes';
import { checkConcurrentCounting } from '../support/notes-counting';
import { notesApiExamples } from '../support/notes-examples';

describe('Notes API on issues', () => {
  notesApiExamples('issues');
});

describe('Notes API on issues: issue rules', () => {
  let w: NotesWorld;
  beforeAll(async () => {
    w = await notesWorld('issues');
  });
  afterAll(() => w?.svc.stop());

  const issuePath = (iid: number, suffix = '') => `/api/v4/projects/${w.project.id}/issues/${iid}${suffix}`;
  const newIssue = async (body: Record<string, unknown> = {}) =>
    (await w.on(w.reporter).post(`/api/v4/projects/${w.project.id}/issues`).send({ title: 'An issue', ...body }).expect(201)).body;

  describe('POST /projects/:id/issues/:noteable_id/notes', () => {
    it('counts comments in user_notes_count, not system notes', async () => {
      const issue = await newIssue();
      await w.on(w.guest).post(issuePath(issue.iid, '/notes')).send({ body: 'Me too' }).expect(201);
      expect((await w.on(w.guest).get(issuePath(issue.iid)).expect(200)).body.user_notes_count).toBe(1);
    });

    it('keeps user_notes_count equal to the stored comments under 50 parallel creates and deletes', async () => {
      const issue = await newIssue();
      await checkConcurrentCounting(w, { id: issue.id, ref: issue.iid, iid: issue.iid }, 'issues');
    });

    it('answers 404 Not found for a confidential issue the caller may not see', async () => {
      const issue = await newIssue({ confidential: true });
      for (const who of [w.guest, w.outsider]) await w.on(who).post(issuePath(issue.iid, '/notes')).send({ body: 'x' }).expect(404, { message: '404 Not found' });
      await w.on(w.outsider).get(issuePath(issue.iid, '/notes')).expect(404, { message: '404 Not found' });
      await w.on(w.reporter).post(issuePath(issue.iid, '/notes')).send({ body: 'x' }).expect(201);
    });

    it('on a locked discussion: members comment, others get 403', async () => {
      const issue = await newIssue();
      const own = (await w.on(w.outsider).post(issuePath(issue.iid, '/notes')).send({ body: 'before' }).expect(201)).body;
      await w.on(w.reporter).put(issuePath(issue.iid)).send({ discussion_locked: true }).expect(200);
      await w.on(w.outsider).post(issuePath(issue.iid, '/notes')).send({ body: 'x' }).expect(403, { message: '403 Forbidden' });
      await w.on(w.outsider).put(issuePath(issue.iid, `/notes/${own.id}`)).send({ body: 'x' }).expect(403, { message: '403 Forbidden' });
      await w.on(w.guest).post(issuePath(issue.iid, '/notes')).send({ body: 'member' }).expect(201);
    });
  });

  describe('POST /projects/:id/issues/:noteable_id/notes with created_at', () => {
    it('keeps it for an Owner of the project\'s group', async () => {
      const groupOwner = await w.world.user('group-owner');
      await w.world.member(w.group, groupOwner, 50);
      const issue = await newIssue();
      const res = await w.on(groupOwner).post(issuePath(issue.iid, '/notes')).send({ body: 'old', created_at: '2021-06-01T10:00:00Z' }).expect(201);
      expect(res.body).toMatchObject({ created_at: '2021-06-01T10:00:00.000Z', updated_at: '2021-06-01T10:00:00.000Z' });
    });
  });

  describe('POST /projects/:id/issues/:noteable_id/notes with /promote', () => {
    it('with only the command: promotes to an epic, persists no note, answers 202 with commands_changes', async () => {
      const issue = await newIssue({ title: 'Make it big', description: 'plan' });
      const res = await w.on(w.reporter).post(issuePath(issue.iid, '/notes')).send({ body: '/promote' }).expect(202);
      expect(res.body).toEqual({ commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] });
      const epics = await w.world.onGroup(w.group, w.reporter).get(`/api/v4/groups/${w.group.id}/epics`).expect(200);
      expect(epics.body[0]).toMatchObject({ title: 'Make it big', description: 'plan', group_id: w.group.id });
      const after = await w.on(w.reporter).get(issuePath(issue.iid)).expect(200);
      expect(after.body).toMatchObject({ state: 'closed', user_notes_count: 0, closed_by: { id: w.reporter.id } });
      const activity = (await w.on(w.guest).get(issuePath(issue.iid, '/notes?activity_filter=only_activity')).expect(200)).body;
      expect(activity).toEqual([expect.objectContaining({ body: `promoted to epic &${epics.body[0].iid}`, system: true, author: expect.objectContaining({ id: w.reporter.id }) })]);
      const ev = await w.svc.deps.db('outbox').where({ type: 'work-items.note.created' }).whereRaw("data->>'id' = ?", [String(activity[0].id)]).first();
      expect(ev.data).toMatchObject({ system: true, noteable_type: 'Issue', noteable_id: issue.id });
    });

    it('with other text: saves that text as the note, with commands_changes', async () => {
      const issue = await newIssue();
      const res = await w.on(w.reporter).post(issuePath(issue.iid, '/notes')).send({ body: 'This is an epic\n/promote' }).expect(201);
      expect(res.body).toMatchObject({ body: 'This is an epic', commands_changes: { promote_to_epic: true } });
    });

    // an unavailable command is still extracted and only reports that it could not apply (notes-emoji.md §2.1)
    const refused = { commands_changes: {}, summary: ['Could not apply promote command.'] };

    it('is not applied for a guest (not allowed) nor on an already promoted issue: 202 "Could not apply"', async () => {
      const issue = await newIssue();
      const post = (who = w.reporter) => w.on(who).post(issuePath(issue.iid, '/notes')).send({ body: '/promote' });
      expect((await post(w.guest).expect(202)).body).toEqual(refused);
      expect((await post().expect(202)).body).toEqual({ commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] });
      expect((await post().expect(202)).body).toEqual(refused);
      const notes = await w.on(w.reporter).get(issuePath(issue.iid, '/notes?activity_filter=only_comments')).expect(200);
      expect(notes.body).toEqual([]);
    });

    it('is not applied in a personal project (no group for the epic)', async () => {
      const personal = await w.world.project('mine');
      await w.world.member(personal, w.owner, 50);
      const on = w.world.onProject(personal, w.owner);
      const issue = (await on.post(`/api/v4/projects/${personal.id}/issues`).send({ title: 'x' }).expect(201)).body;
      const res = await on.post(`/api/v4/projects/${personal.id}/issues/${issue.iid}/notes`).send({ body: '/promote' }).expect(202);
      expect(res.body).toEqual(refused);
    });
  });

  describe('PUT /projects/:id/issues/:noteable_id/notes/:note_id with /promote', () => {
    it('with only the command: promotes, deletes the note, answers 202', async () => {
      const issue = await newIssue();
      const note = (await w.on(w.reporter).post(issuePath(issue.iid, '/notes')).send({ body: 'draft' }).expect(201)).body;
      const res = await w.on(w.reporter).put(issuePath(issue.iid, `/notes/${note.id}`)).send({ body: '/promote' }).expect(202);
      expect(res.body).toEqual({ commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] });
      expect(await w.svc.deps.db('notes').where({ id: note.id }).first()).toBeUndefined();
      expect((await w.on(w.reporter).get(issuePath(issue.iid)).expect(200)).body).toMatchObject({ state: 'closed', user_notes_count: 0 });
    });

    it('with other text: keeps the text and reports commands_changes', async () => {
      const issue = await newIssue();
      const note = (await w.on(w.reporter).post(issuePath(issue.iid, '/notes')).send({ body: 'draft' }).expect(201)).body;
      const res = await w.on(w.reporter).put(issuePath(issue.iid, `/notes/${note.id}`)).send({ body: 'Epic now\n/promote' }).expect(200);
      expect(res.body).toMatchObject({ id: note.id, body: 'Epic now', commands_changes: { promote_to_epic: true } });
    });
  });

  describe('archived project', () => {
    it('takes no comments (403)', async () => {
      const issue = await newIssue();
      await w.world.archive(w.project);
      await w.on(w.reporter).post(issuePath(issue.iid, '/notes')).send({ body: 'x' }).expect(403, { message: '403 Forbidden' });
      await w.world.archive(w.project, false);
    });
  });
});

describe('notes_create rate limit (NOTES_CREATE_LIMIT)', () => {
  let w: NotesWorld;
  beforeAll(async () => {
    w = await notesWorld('issues', { NOTES_CREATE_LIMIT: '2' });
  });
  afterAll(() => w?.svc.stop());

  it('answers 429 with Retry-After past the limit per user and minute, counting failed lookups too', async () => {
    const made = await w.make();
    await w.on(w.guest).post(w.notes(99_999)).send({ body: 'x' }).expect(404, { message: '404 Not found' });
    await w.on(w.guest).post(w.notes(made.ref)).send({ body: 'x' }).expect(201);
    const res = await w.on(w.guest).post(w.notes(made.ref)).send({ body: 'x' }).expect(429);
    expect(res.body).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
    expect(res.headers['retry-after']).toBe('60');
    await w.on(w.guest).post(w.notes(99_999)).send({ body: 'x' }).expect(429);
    await w.on(w.reporter).post(w.notes(made.ref)).send({ body: 'other user' }).expect(201);
    await w.on(w.guest).get(w.notes(made.ref)).expect(200);
  });
});

describe('notes_create rate limit from the instance setting (identity.settings.updated)', () => {
  let w: NotesWorld;
  beforeAll(async () => {
    w = await notesWorld('issues');
  });
  afterAll(() => w?.svc.stop());

  const setLimit = (limit: number) => w.world.publish('identity.settings.updated', { settings: { notes_create_limit: limit }, changes: ['notes_create_limit'], actor_id: w.admin.id });

  it('applies a changed limit without a restart, and lifts it again with 0', async () => {
    const made = await w.make();
    for (let i = 0; i < 3; i++) await w.on(w.guest).post(w.notes(made.ref)).send({ body: `free ${i}` }).expect(201);
    await setLimit(1);
    await w.on(w.reporter).post(w.notes(made.ref)).send({ body: 'first' }).expect(201);
    await w.on(w.reporter).post(w.notes(made.ref)).send({ body: 'second' }).expect(429);
    await setLimit(0);
    await w.on(w.reporter).post(w.notes(made.ref)).send({ body: 'third' }).expect(201);
  });
});
