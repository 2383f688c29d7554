import { notesWorld, NotesWorld } from '../support/notes';

describe('Notes API on project snippets', () => {
  let w: NotesWorld;
  beforeAll(async () => {
    w = await notesWorld('issues');
  });
  afterAll(() => w?.svc.stop());

  const snippet = async (visibility: 'public' | 'private'): Promise<number> =>
    (await w.on(w.reporter).post(`/api/v4/projects/${w.project.id}/snippets`).send({ title: `a ${visibility} one`, file_name: 'a.txt', content: 'x', visibility }).expect(201)).body.id;
  const notes = (id: number, suffix = '') => `/api/v4/projects/${w.project.id}/snippets/${id}/notes${suffix}`;

  it('creates, lists, edits and deletes a comment on a public snippet (noteable_type Snippet, no iid)', async () => {
    const id = await snippet('public');
    const created = (await w.on(w.outsider).post(notes(id)).send({ body: 'Nice' }).expect(201)).body;
    expect(created).toMatchObject({ body: 'Nice', noteable_type: 'Snippet', noteable_id: id, noteable_iid: null, project_id: w.project.id, internal: false, system: false });
    expect((await w.on(w.guest).get(notes(id)).expect(200)).body.map((n: { id: number }) => n.id)).toEqual([created.id]);
    expect((await w.on(w.outsider).put(notes(id, `/${created.id}`)).send({ body: 'Nicer' }).expect(200)).body.body).toBe('Nicer');
    await w.on(w.guest).put(notes(id, `/${created.id}`)).send({ body: 'mine now' }).expect(403, { message: '403 Forbidden' });
    await w.on(w.outsider).delete(notes(id, `/${created.id}`)).expect(204);
    expect((await w.on(w.guest).get(notes(id)).expect(200)).body).toEqual([]);
  });

  it('keeps quick actions as text (GitLab runs none on snippet notes)', async () => {
    const id = await snippet('public');
    const res = await w.on(w.reporter).post(notes(id)).send({ body: '/close\n/award :+1:' }).expect(201);
    expect(res.body).toMatchObject({ body: '/close\n/award :+1:', commands_changes: {} });
  });

  it('refuses internal notes on a snippet with GitLab’s 400', async () => {
    const id = await snippet('public');
    await w.on(w.reporter).post(notes(id)).send({ body: 'secret', internal: true })
      .expect(400, { message: '400 Bad request - Note {:confidential=>["can not be set for this resource"]}' });
    expect((await w.on(w.reporter).get(notes(id)).expect(200)).body).toEqual([]);
  });

  it('answers 404 Not found for a private snippet to a non-member, and for an unknown snippet', async () => {
    const id = await snippet('private');
    await w.on(w.outsider).get(notes(id)).expect(404, { message: '404 Not found' });
    await w.on(w.outsider).post(notes(id)).send({ body: 'x' }).expect(404, { message: '404 Not found' });
    await w.on(w.guest).post(notes(id)).send({ body: 'members see it' }).expect(201);
    await w.on(w.guest).get(notes(999999)).expect(404, { message: '404 Not found' });
  });

  it('needs a signed-in caller for every verb (401)', async () => {
    const id = await snippet('public');
    await w.on(null).get(notes(id)).expect(401, { message: '401 Unauthorized' });
  });
});
