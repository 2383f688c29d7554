import { notesWorld, NotesWorld } from '../support/notes';
import { notesApiExamples } from '../support/notes-examples';

describe('Notes API on group epics', () => {
  notesApiExamples('epics');
});

describe('Notes API on group epics: epic rules', () => {
  let w: NotesWorld;
  beforeAll(async () => {
    w = await notesWorld('epics');
  });
  afterAll(() => w?.svc.stop());

  const epic = async (body: Record<string, unknown> = {}) =>
    (await w.on(w.reporter).post(`/api/v4/groups/${w.group.id}/epics`).send({ title: 'An epic', ...body }).expect(201)).body;

  describe('GET /groups/:id/epics/:noteable_id/notes', () => {
    it('finds the epic by id, not iid: another group’s epic id is 404 Not found', async () => {
      const other = await w.world.group('other', { visibility: 'public' });
      await w.world.member(other, w.reporter, 20);
      const foreign = (await w.world.onGroup(other, w.reporter).post(`/api/v4/groups/${other.id}/epics`).send({ title: 'elsewhere' }).expect(201)).body;
      await w.on(w.reporter).get(w.notes(foreign.id)).expect(404, { message: '404 Not found' });
    });

    it('hides a confidential epic below Planner (404 Not found)', async () => {
      const secret = await epic({ confidential: true });
      await w.on(w.guest).get(w.notes(secret.id)).expect(404, { message: '404 Not found' });
      await w.on(w.outsider).post(w.notes(secret.id)).send({ body: 'x' }).expect(404, { message: '404 Not found' });
      await w.on(w.reporter).get(w.notes(secret.id)).expect(200);
    });
  });

  describe('POST /groups/:id/epics/:noteable_id/notes', () => {
    it('shows the note as an Epic note: project_id and noteable_iid null, /promote kept as text', async () => {
      const made = await epic();
      const res = await w.on(w.reporter).post(w.notes(made.id)).send({ body: '/promote' }).expect(201);
      expect(res.body).toMatchObject({ body: '/promote', noteable_type: 'Epic', noteable_id: made.id, noteable_iid: null, project_id: null, commands_changes: {} });
      expect(await w.svc.deps.db('notes').where({ id: res.body.id }).first()).toMatchObject({ group_id: w.group.id, project_id: null });
    });
  });
});
