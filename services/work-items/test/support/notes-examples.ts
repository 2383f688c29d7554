import type { Actor } from '@anvil/auth';
import type { NoteRow } from '../../src/notes/note-store';
import { Made, notesWorld, NotesTargetName, NotesWorld, userBasic } from './notes';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PATHS: Record<NotesTargetName, string> = {
  issues: '/projects/:id/issues/:noteable_id/notes',
  merge_requests: '/projects/:id/merge_requests/:noteable_id/notes',
  epics: '/groups/:id/epics/:noteable_id/notes',
};

/** A note as the API answers it. */
type NoteJson = { id: number; body: string; created_at: string; updated_at: string } & Record<string, unknown>;

/** What the examples of one endpoint share: the world (filled in before the examples run) and helpers over it. */
interface Examples {
  w: NotesWorld;
  path: string;
  entity(made: Made, who: Actor, extra?: Record<string, unknown>): Record<string, unknown>;
  comment(made: Made, who: Actor, body?: Record<string, unknown>): Promise<NoteJson>;
  systemNote(made: Made): Promise<{ id: number }>;
  stored(id: number): Promise<NoteRow | undefined>;
  events(type: string, id: number): Promise<{ data: Record<string, unknown> }[]>;
}

function helpers(w: NotesWorld, path: string): Examples {
  return {
    w,
    path,
    entity: (made, who, extra = {}) => ({
      id: expect.any(Number), type: null, body: expect.any(String), attachment: null, author: userBasic(who),
      created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO), system: false,
      noteable_id: made.id, noteable_type: w.type, project_id: w.projectId, resolvable: false, confidential: false, internal: false,
      imported: false, imported_from: 'none', noteable_iid: made.iid, commands_changes: {}, ...extra,
    }),
    comment: async (made, who, body = {}) => (await w.on(who).post(w.notes(made.ref)).send({ body: 'A comment', ...body }).expect(201)).body,
    systemNote: async (made) => {
      const row = { noteable_type: w.type, noteable_id: made.id, project_id: w.projectId, author_id: w.reporter.id, body: 'changed the description', system: true };
      return (await w.svc.deps.db('notes').insert(row).returning('*'))[0];
    },
    stored: (id) => w.svc.deps.db('notes').where({ id }).first(),
    events: (type, id) => w.svc.deps.db('outbox').where({ type }).whereRaw("data->>'id' = ?", [String(id)]),
  };
}

/** What GitLab's Notes API answers, for every noteable kind: the shared examples of the three notes test files. */
export function notesApiExamples(target: NotesTargetName): void {
  const w = {} as NotesWorld;
  beforeAll(async () => {
    Object.assign(w, await notesWorld(target));
  });
  afterAll(() => w.svc?.stop());
  const x = helpers(w, PATHS[target]);
  listExamples(x);
  showExamples(x);
  createExamples(x);
  updateExamples(x);
  deleteExamples(x);
}

/** Examples of the list. */
function listExamples({ w, path, entity, comment, systemNote }: Examples): void {
  describe(`GET ${path}`, () => {
    it('lists the notes newest first with pagination headers', async () => {
      const made = await w.make();
      const first = await comment(made, w.guest, { body: 'first' });
      const second = await comment(made, w.reporter, { body: 'second' });
      const res = await w.on(w.guest).get(w.notes(made.ref)).expect(200);
      expect(res.body).toEqual([entity(made, w.reporter, { id: second.id, body: 'second' }), entity(made, w.guest, { id: first.id, body: 'first' })]);
      expect(res.headers).toMatchObject({ 'x-total': '2', 'x-total-pages': '1', 'x-per-page': '20', 'x-page': '1', 'x-next-page': '', 'x-prev-page': '' });
      const paged = await w.on(w.guest).get(`${w.notes(made.ref)}?per_page=1&page=2`).expect(200);
      expect(paged.body.map((n: { id: number }) => n.id)).toEqual([first.id]);
      expect(paged.headers).toMatchObject({ 'x-total': '2', 'x-total-pages': '2', 'x-page': '2', 'x-prev-page': '1', 'x-next-page': '' });
    });

    it('orders by created_at (id) or updated_at, in either direction', async () => {
      const made = await w.make();
      const a = await comment(made, w.guest, { body: 'a' });
      const b = await comment(made, w.guest, { body: 'b' });
      await w.on(w.guest).put(w.notes(made.ref, `/${a.id}`)).send({ body: 'a, edited' }).expect(200);
      const ids = async (q: string) => (await w.on(w.guest).get(`${w.notes(made.ref)}?${q}`).expect(200)).body.map((n: { id: number }) => n.id);
      expect(await ids('sort=asc')).toEqual([a.id, b.id]);
      expect(await ids('order_by=created_at&sort=desc')).toEqual([b.id, a.id]);
      expect(await ids('order_by=updated_at')).toEqual([a.id, b.id]);
      expect(await ids('order_by=updated_at&sort=asc')).toEqual([b.id, a.id]);
    });

    it('filters by activity_filter: only_comments, only_activity, all_notes', async () => {
      const made = await w.make();
      const user = await comment(made, w.guest);
      const system = await systemNote(made);
      const ids = async (f: string) => (await w.on(w.guest).get(`${w.notes(made.ref)}?activity_filter=${f}`).expect(200)).body.map((n: { id: number }) => n.id);
      expect(await ids('only_comments')).toEqual([user.id]);
      expect(await ids('only_activity')).toEqual([system.id]);
      expect(await ids('all_notes')).toEqual([system.id, user.id]);
      const sys = (await w.on(w.guest).get(`${w.notes(made.ref)}?activity_filter=only_activity`).expect(200)).body[0];
      expect(sys).toEqual(entity(made, w.reporter, { id: system.id, body: 'changed the description', system: true }));
    });

    it('rejects unknown parameter values as Grape does (400)', async () => {
      const made = await w.make();
      for (const [param, value] of [['order_by', 'id'], ['sort', 'up'], ['activity_filter', 'everything']]) {
        await w.on(w.guest).get(`${w.notes(made.ref)}?${param}=${value}`).expect(400, { error: `${param} does not have a valid value` });
      }
      await w.on(w.guest).get(w.notes(0).replace('/0/', '/abc/')).expect(400, { error: 'noteable_id is invalid' });
    });

    it('drops internal notes below Reporter after paginating (headers count them)', async () => {
      const made = await w.make();
      const internal = await comment(made, w.reporter, { body: 'staff only', internal: true });
      const open = await comment(made, w.guest, { body: 'hello' });
      const guest = await w.on(w.guest).get(w.notes(made.ref)).expect(200);
      expect(guest.body.map((n: { id: number }) => n.id)).toEqual([open.id]);
      expect(guest.headers['x-total']).toBe('2');
      for (const who of [w.reporter, w.admin]) {
        expect((await w.on(who).get(w.notes(made.ref)).expect(200)).body.map((n: { id: number }) => n.id)).toEqual([open.id, internal.id]);
      }
    });

    it('is 401 anonymous and 404 Not found for an unknown noteable', async () => {
      const made = await w.make();
      await w.on(null).get(w.notes(made.ref)).expect(401, { message: '401 Unauthorized' });
      await w.on(w.guest).get(w.notes(99_999)).expect(404, { message: '404 Not found' });
    });
  });
}

/** Examples of one note. */
function showExamples({ w, path, entity, comment }: Examples): void {
  describe(`GET ${path}/:note_id`, () => {
    it('returns the note', async () => {
      const made = await w.make();
      const note = await comment(made, w.guest, { body: 'hello' });
      expect((await w.on(w.outsider).get(w.notes(made.ref, `/${note.id}`)).expect(200)).body).toEqual(entity(made, w.guest, { id: note.id, body: 'hello' }));
    });

    it('is 404 Note Not Found for an internal note below Reporter, shown to Reporters and admins', async () => {
      const made = await w.make();
      const note = await comment(made, w.reporter, { internal: true });
      await w.on(w.guest).get(w.notes(made.ref, `/${note.id}`)).expect(404, { message: '404 Note Not Found' });
      for (const who of [w.reporter, w.admin]) expect((await w.on(who).get(w.notes(made.ref, `/${note.id}`)).expect(200)).body.internal).toBe(true);
    });

    it('is 404 Not found for a note of another noteable or none, 400 for a non-integer id, 401 anonymous', async () => {
      const made = await w.make();
      const other = await w.make();
      const note = await comment(other, w.guest);
      await w.on(w.guest).get(w.notes(made.ref, `/${note.id}`)).expect(404, { message: '404 Not found' });
      await w.on(w.guest).get(w.notes(made.ref, '/99999')).expect(404, { message: '404 Not found' });
      await w.on(w.guest).get(w.notes(made.ref, '/x')).expect(400, { error: 'note_id is invalid' });
      await w.on(w.guest).get(w.notes(made.ref, '/2147483648')).expect(404, { message: '404 Not found' });
      await w.on(w.guest).get(w.notes(2_147_483_648)).expect(404, { message: '404 Not found' });
      await w.on(null).get(w.notes(made.ref, `/${note.id}`)).expect(401, { message: '401 Unauthorized' });
    });
  });
}

/** Examples of creating. */
function createExamples({ w, path, entity, comment, stored, events }: Examples): void {
  describe(`POST ${path}`, () => {
    it('creates a comment (201, Note entity, stored, event written)', async () => {
      const made = await w.make();
      const res = await w.on(w.guest).post(w.notes(made.ref)).send({ body: 'Me too' }).expect(201);
      expect(res.body).toEqual(entity(made, w.guest, { body: 'Me too' }));
      expect(await stored(res.body.id)).toMatchObject({ body: 'Me too', author_id: w.guest.id, noteable_type: w.type, noteable_id: made.id, system: false, internal: false });
      const [ev] = await events('work-items.note.created', res.body.id);
      expect(ev.data).toMatchObject({ id: res.body.id, noteable_type: w.type, noteable_id: made.id, noteable_iid: made.iid, body: 'Me too', actor_id: w.guest.id });
    });

    it('lets an outsider comment on a public noteable', async () => {
      const made = await w.make();
      expect((await comment(made, w.outsider)).author).toEqual(userBasic(w.outsider));
    });

    it('stores an emoji-only body as an ordinary note', async () => {
      const made = await w.make();
      expect((await comment(made, w.guest, { body: ':+1:' })).body).toBe(':+1:');
    });

    it('needs a body that is not blank and at most 1,000,000 characters', async () => {
      const made = await w.make();
      await w.on(w.guest).post(w.notes(made.ref)).send({}).expect(400, { error: 'body is missing' });
      await w.on(w.guest).post(w.notes(made.ref)).send({ body: '  ' }).expect(400, { message: `400 Bad request - Note {:note=>["can't be blank"]}` });
      await w.on(w.guest).post(w.notes(made.ref)).send({ body: 'x'.repeat(1_000_001) })
        .expect(400, { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' });
      expect((await comment(made, w.guest, { body: 'y'.repeat(1_000_000) })).body).toHaveLength(1_000_000);
    });

    it('refuses a comment past 5,000 on one noteable (system notes do not count)', async () => {
      const made = await w.make();
      await w.svc.deps.db.raw(
        `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system)
         SELECT ?, ?, ?, ?, 'filler', n > 5000 FROM generate_series(1, 5001) AS n`,
        [w.type, made.id, w.projectId, w.guest.id],
      );
      await w.on(w.guest).post(w.notes(made.ref)).send({ body: 'one more' })
        .expect(400, { message: '400 Bad request - Note {:base=>["Maximum number of comments exceeded"]}' });
      const one = await w.svc.deps.db('notes').where({ noteable_type: w.type, noteable_id: made.id, system: false }).first('id');
      await w.svc.deps.db('notes').where({ id: one.id }).delete();
      await w.on(w.guest).post(w.notes(made.ref)).send({ body: 'room again' }).expect(201);
    });

    it('keeps internal (or confidential) for Reporters and up, drops it silently below', async () => {
      const made = await w.make();
      expect(await comment(made, w.reporter, { internal: true })).toMatchObject({ internal: true, confidential: true });
      expect(await comment(made, w.admin, { confidential: true })).toMatchObject({ internal: true, confidential: true });
      const dropped = await comment(made, w.guest, { internal: true });
      expect(dropped).toMatchObject({ internal: false, confidential: false });
      expect(await stored(dropped.id)).toMatchObject({ internal: false });
    });

    it('keeps created_at (and sets updated_at to it) for Owners and admins only', async () => {
      const made = await w.make();
      for (const who of [w.owner, w.admin]) {
        expect(await comment(made, who, { created_at: '2020-01-02T03:04:05Z' })).toMatchObject({ created_at: '2020-01-02T03:04:05.000Z', updated_at: '2020-01-02T03:04:05.000Z' });
      }
      for (const [who, createdAt] of [[w.maintainer, '2020-01-02T03:04:05Z'], [w.owner, 'not a time']] as const) {
        const ignored = await comment(made, who, { created_at: createdAt });
        expect(new Date(ignored.created_at).getFullYear()).toBeGreaterThan(2020);
      }
      await w.on(w.owner).post(w.notes(made.ref)).send({ body: 'old', created_at: '1969-12-31T23:59:59Z' })
        .expect(400, { message: '400 Bad request - Note {:created_at=>["The created date provided is too far in the past."]}' });
    });

    it('is 401 anonymous, 404 Not found for an unknown noteable, 400 for a non-integer one', async () => {
      await w.on(null).post(w.notes(1)).send({ body: 'x' }).expect(401, { message: '401 Unauthorized' });
      await w.on(w.guest).post(w.notes(99_999)).send({ body: 'x' }).expect(404, { message: '404 Not found' });
      await w.on(w.guest).post(w.notes(0).replace('/0/', '/abc/')).send({ body: 'x' }).expect(400, { error: 'noteable_id is invalid' });
    });
  });
}

/** Examples of editing. */
function updateExamples({ w, path, entity, comment, systemNote, stored, events }: Examples): void {
  describe(`PUT ${path}/:note_id`, () => {
    it('lets the author edit the body (200, stored with editor and time, event written)', async () => {
      const made = await w.make();
      const note = await comment(made, w.guest, { body: 'tpyo' });
      const res = await w.on(w.guest).put(w.notes(made.ref, `/${note.id}`)).send({ body: 'typo' }).expect(200);
      expect(res.body).toEqual(entity(made, w.guest, { id: note.id, body: 'typo', created_at: note.created_at }));
      expect(await stored(note.id)).toMatchObject({ body: 'typo', updated_by_id: w.guest.id, last_edited_at: expect.any(Date) });
      expect((await events('work-items.note.updated', note.id))[0].data).toMatchObject({ body: 'typo', actor_id: w.guest.id });
    });

    it('lets Maintainers and admins edit others’ notes; 403 for other members', async () => {
      const made = await w.make();
      const note = await comment(made, w.guest);
      for (const who of [w.maintainer, w.owner, w.admin]) await w.on(who).put(w.notes(made.ref, `/${note.id}`)).send({ body: `by ${who.username}` }).expect(200);
      for (const who of [w.reporter, w.outsider]) await w.on(who).put(w.notes(made.ref, `/${note.id}`)).send({ body: 'x' }).expect(403, { message: '403 Forbidden' });
      expect((await stored(note.id))?.body).toBe('by admin');
    });

    it('never edits system notes (403, even for an admin)', async () => {
      const made = await w.make();
      const system = await systemNote(made);
      await w.on(w.admin).put(w.notes(made.ref, `/${system.id}`)).send({ body: 'x' }).expect(403, { message: '403 Forbidden' });
    });

    it('refuses a changed confidential flag and a blank body; no change answers the note', async () => {
      const made = await w.make();
      const note = await comment(made, w.guest, { body: 'same' });
      await w.on(w.guest).put(w.notes(made.ref, `/${note.id}`)).send({ confidential: true })
        .expect(400, { message: '400 Bad request - Note {:confidential=>["can not be changed for existing notes"]}' });
      await w.on(w.guest).put(w.notes(made.ref, `/${note.id}`)).send({ body: '' }).expect(400, { error: 'body is empty' });
      expect((await w.on(w.guest).put(w.notes(made.ref, `/${note.id}`)).send({ confidential: false }).expect(200)).body).toMatchObject({ body: 'same', updated_at: note.updated_at });
      expect((await w.on(w.guest).put(w.notes(made.ref, `/${note.id}`)).send({}).expect(200)).body).toMatchObject({ body: 'same', updated_at: note.updated_at });
      expect(await stored(note.id)).toMatchObject({ body: 'same', last_edited_at: null });
    });

    it('is 404 Not found for an unknown note, 401 anonymous', async () => {
      const made = await w.make();
      await w.on(w.guest).put(w.notes(made.ref, '/99999')).send({ body: 'x' }).expect(404, { message: '404 Not found' });
      await w.on(null).put(w.notes(made.ref, '/1')).send({ body: 'x' }).expect(401, { message: '401 Unauthorized' });
    });
  });
}

/** Examples of deleting. */
function deleteExamples({ w, path, comment, systemNote, stored, events }: Examples): void {
  describe(`DELETE ${path}/:note_id`, () => {
    it('lets the author delete (204, gone, event written)', async () => {
      const made = await w.make();
      const note = await comment(made, w.guest);
      const res = await w.on(w.guest).delete(w.notes(made.ref, `/${note.id}`)).expect(204);
      expect(res.text).toBe('');
      expect(await stored(note.id)).toBeUndefined();
      expect((await events('work-items.note.deleted', note.id))[0].data).toMatchObject({ id: note.id, actor_id: w.guest.id });
      await w.on(w.guest).get(w.notes(made.ref, `/${note.id}`)).expect(404, { message: '404 Not found' });
    });

    it('lets Maintainers and admins delete; 403 for other members and for system notes', async () => {
      const made = await w.make();
      const [a, b] = [await comment(made, w.guest), await comment(made, w.guest)];
      await w.on(w.reporter).delete(w.notes(made.ref, `/${a.id}`)).expect(403, { message: '403 Forbidden' });
      await w.on(w.maintainer).delete(w.notes(made.ref, `/${a.id}`)).expect(204);
      await w.on(w.admin).delete(w.notes(made.ref, `/${b.id}`)).expect(204);
      const system = await systemNote(made);
      await w.on(w.admin).delete(w.notes(made.ref, `/${system.id}`)).expect(403, { message: '403 Forbidden' });
    });

    it('honours If-Unmodified-Since (412 when the note changed later)', async () => {
      const made = await w.make();
      const note = await comment(made, w.guest);
      await w.on(w.guest).delete(w.notes(made.ref, `/${note.id}`)).set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT').expect(412, { message: '412 Precondition Failed' });
      expect(await stored(note.id)).toBeDefined();
      await w.on(w.guest).delete(w.notes(made.ref, `/${note.id}`)).set('If-Unmodified-Since', new Date(Date.now() + 60_000).toUTCString()).expect(204);
    });

    it('is 404 Not found for an unknown note, 401 anonymous', async () => {
      const made = await w.make();
      await w.on(w.guest).delete(w.notes(made.ref, '/99999')).expect(404, { message: '404 Not found' });
      await w.on(null).delete(w.notes(made.ref, '/1')).expect(401, { message: '401 Unauthorized' });
    });
  });
}
