import { notesWorld, NotesWorld } from '../support/notes';
import { checkConcurrentCounting } from '../support/notes-counting';
import { notesApiExamples } from '../support/notes-examples';

describe('Notes API on merge requests', () => {
  notesApiExamples('merge_requests');
});

describe('Notes API on merge requests: merge request rules', () => {
  let w: NotesWorld;
  beforeAll(async () => {
    w = await notesWorld('merge_requests');
  });
  afterAll(() => w?.svc.stop());

  const mrPath = (iid: number) => `/api/v4/projects/${w.project.id}/merge_requests/${iid}`;

  describe('POST /projects/:id/merge_requests/:noteable_id/notes', () => {
    it('counts comments in user_notes_count and leaves /promote as text', async () => {
      const made = await w.make();
      const res = await w.on(w.reporter).post(w.notes(made.ref)).send({ body: '/promote' }).expect(201);
      expect(res.body).toMatchObject({ body: '/promote', commands_changes: {}, noteable_iid: made.iid });
      expect((await w.on(w.guest).get(mrPath(made.ref)).expect(200)).body.user_notes_count).toBe(1);
    });

    it('keeps user_notes_count equal to the stored comments under 50 parallel creates and deletes', async () => {
      await checkConcurrentCounting(w, await w.make(), 'merge_requests');
    });

    it('in a private project: 404 Not found below Reporter', async () => {
      const secret = await w.world.project('secret', { group: w.group });
      for (const [who, level] of [[w.guest, 10], [w.reporter, 20]] as const) await w.world.member(secret, who, level);
      const mr = (await w.world.onProject(secret, w.admin).post(`/api/v4/projects/${secret.id}/merge_requests`).send({ source_branch: 's', target_branch: 'main', title: 't' }).expect(201)).body;
      const notes = `/api/v4/projects/${secret.id}/merge_requests/${mr.iid}/notes`;
      await w.world.onProject(secret, w.guest).get(notes).expect(404, { message: '404 Not found' });
      await w.world.onProject(secret, w.guest).post(notes).send({ body: 'x' }).expect(404, { message: '404 Not found' });
      await w.world.onProject(secret, w.reporter).post(notes).send({ body: 'x' }).expect(201);
    });

    it('on a locked discussion: members comment, others get 403', async () => {
      const made = await w.make();
      await w.on(w.maintainer).put(mrPath(made.ref)).send({ discussion_locked: true }).expect(200);
      await w.on(w.outsider).post(w.notes(made.ref)).send({ body: 'x' }).expect(403, { message: '403 Forbidden' });
      await w.on(w.guest).post(w.notes(made.ref)).send({ body: 'member' }).expect(201);
    });
  });
});
