import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { ctx, NotFoundError, p, paginate, params, RecordNotFoundError, UnauthorizedError } from '@anvil/http';
import { toNote, toNoteCommands } from '../entities/note';
import { canReadNote } from '../notes/note-policy';
import { createNote, destroyNote, NoteResult, updateNote } from '../notes/note-service';
import { findNoteOf, Note, noteFromRow, NoteRow } from '../notes/note-store';
import { Noteable, NOTEABLE_KINDS, NoteableKind, noteParent, NoteParent } from '../notes/noteables';
import { ACTIVITY_FILTERS, NotesFinder } from '../notes/notes-finder';
import type { NotesCreateLimiter } from '../notes/rate-limit';
import { usersByIds } from '../read-model/store';
import type { RouteDeps } from './deps';

const noteParams = params({ noteable_id: p.integer().required(), note_id: p.integer().required() });
const listParams = params({
  noteable_id: p.integer().required(),
  order_by: p.enum(['created_at', 'updated_at'] as const).default('created_at'),
  sort: p.enum(['asc', 'desc'] as const).default('desc'),
  activity_filter: p.enum(ACTIVITY_FILTERS).default('all_notes'),
});
const createParams = params({
  noteable_id: p.integer().required(), body: p.string().required(), confidential: p.boolean(), internal: p.boolean(),
  created_at: p.string(), merge_request_diff_head_sha: p.string(),
});
const updateParams = params({ noteable_id: p.integer().required(), note_id: p.integer().required(), body: p.string().notBlank(), confidential: p.boolean() });

/** Ids above Postgres' integer range name no record (`404 Not found`, as GitLab's bigint lookups answer). */
const MAX_ID = 2_147_483_647;

/** `created_at` as Rails assigns a String to a time column: a time it can parse, else nothing. */
function parseTime(value: string | undefined): Date | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** The signed-in caller's id: every notes route runs GitLab's `authenticate!` first. */
function authenticate(req: Request): number {
  const user = ctx(req).user;
  if (!user) throw new UnauthorizedError();
  return user.id;
}

/** The `If-Unmodified-Since` time of a request, when it sends a valid one. */
function unmodifiedSince(req: Request): Date | undefined {
  const at = Date.parse(req.get('if-unmodified-since') ?? '');
  return Number.isNaN(at) ? undefined : new Date(at);
}

/** GitLab's `find_noteable`: the parent, then the noteable (`404 Not found` when missing or hidden). */
async function findNoteable(db: Knex, req: Request, kind: NoteableKind, id: number, forWrite = false): Promise<{ parent: NoteParent; noteable: Noteable }> {
  const parent = await noteParent(db, ctx(req), kind, forWrite);
  const noteable = Math.abs(id) > MAX_ID ? undefined : await kind.find(db, parent, id, parent.viewer);
  if (!noteable) throw new RecordNotFoundError();
  return { parent, noteable };
}

/** `noteable.notes.find(note_id)`: `404 Not found` when the noteable has no such note. */
async function findNote(db: Knex, noteable: Noteable, noteId: number): Promise<Note> {
  const note = Math.abs(noteId) > MAX_ID ? undefined : await findNoteOf(db, noteable.type, noteable.id, noteId);
  if (!note) throw new RecordNotFoundError();
  return note;
}

async function present(db: Knex, noteable: Noteable, notes: Note[], commandsChanges?: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const users = await usersByIds(db, notes.map((n) => n.authorId));
  return notes.map((n) => toNote(n, users.get(n.authorId), noteable.iid, commandsChanges));
}

/** A create or update answer: 202 `NoteCommands` for a body of only commands, else the note with `status`. */
async function respond(db: Knex, noteable: Noteable, result: NoteResult, status: number): Promise<[number, unknown]> {
  if (!result.note) return [202, toNoteCommands(result.commandsChanges, result.summary)];
  return [status, (await present(db, noteable, [result.note], result.commandsChanges))[0]];
}

/** GitLab's Notes API (`lib/api/notes.rb`) for every noteable kind: list, get, create, update, delete. */
export function mountNotes(router: Router, { db }: RouteDeps, limiter: NotesCreateLimiter): void {
  for (const kind of NOTEABLE_KINDS) mountKind(router, db, limiter, kind);
}

function mountKind(router: Router, db: Knex, limiter: NotesCreateLimiter, kind: NoteableKind): void {
  const base = `${kind.prefix}/notes`;
  // GET /projects/:id/{issues,merge_requests}/:noteable_id/notes, GET /groups/:id/epics/:noteable_id/notes
  router.get(base, async (req, res) => {
    authenticate(req);
    const f = listParams.parse(req);
    const { parent, noteable } = await findNoteable(db, req, kind, f.noteable_id);
    const finder = new NotesFinder(db, noteable, { orderBy: f.order_by, sort: f.sort, activityFilter: f.activity_filter });
    const page = await paginate<NoteRow>(req, finder.execute());
    const notes = page.items.map(noteFromRow).filter((n) => canReadNote(parent, n));
    res.set(page.headers).json(await present(db, noteable, notes));
  });

  // GET /projects/:id/{issues,merge_requests}/:noteable_id/notes/:note_id, GET /groups/:id/epics/:noteable_id/notes/:note_id
  router.get(`${base}/:note_id`, async (req, res) => {
    authenticate(req);
    const { noteable_id, note_id } = noteParams.parse(req);
    const { parent, noteable } = await findNoteable(db, req, kind, noteable_id);
    const note = await findNote(db, noteable, note_id);
    if (!canReadNote(parent, note)) throw new NotFoundError('Note');
    res.json((await present(db, noteable, [note]))[0]);
  });

  // POST /projects/:id/{issues,merge_requests}/:noteable_id/notes, POST /groups/:id/epics/:noteable_id/notes
  router.post(base, async (req, res) => {
    const userId = authenticate(req);
    const input = createParams.parse(req);
    await limiter.hit(userId);
    const { parent, noteable } = await findNoteable(db, req, kind, input.noteable_id, true);
    const result = await createNote(db, parent, kind, noteable, { body: input.body, internal: !!(input.internal || input.confidential), createdAt: parseTime(input.created_at) });
    const [status, body] = await respond(db, noteable, result, 201);
    res.status(status).json(body);
  });

  // PUT /projects/:id/{issues,merge_requests}/:noteable_id/notes/:note_id, PUT /groups/:id/epics/:noteable_id/notes/:note_id
  router.put(`${base}/:note_id`, async (req, res) => {
    authenticate(req);
    const input = updateParams.parse(req);
    const { parent, noteable } = await findNoteable(db, req, kind, input.noteable_id, true);
    const note = await findNote(db, noteable, input.note_id);
    const result = await updateNote(db, parent, noteable, note, { body: input.body, confidential: input.confidential });
    const [status, body] = await respond(db, noteable, result, 200);
    res.status(status).json(body);
  });

  // DELETE /projects/:id/{issues,merge_requests}/:noteable_id/notes/:note_id, DELETE /groups/:id/epics/:noteable_id/notes/:note_id
  router.delete(`${base}/:note_id`, async (req, res) => {
    authenticate(req);
    const { noteable_id, note_id } = noteParams.parse(req);
    const { parent, noteable } = await findNoteable(db, req, kind, noteable_id);
    const note = await findNote(db, noteable, note_id);
    await destroyNote(db, parent, noteable, note, unmodifiedSince(req));
    res.status(204).end();
  });
}
