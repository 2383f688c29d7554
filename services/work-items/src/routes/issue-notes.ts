import type { Router } from 'express';
import { AccessLevel } from '@anvil/auth';
import { ctx, HttpError, p, paginate, params, UnauthorizedError } from '@anvil/http';
import { projectContext } from '../access/project-context';
import { toNote, toNoteCommands } from '../entities/note';
import { findReadableIssue } from '../issues/issue-access';
import { createIssueNote } from '../notes/note-service';
import { noteFromRow, NoteRow, notesOf } from '../notes/note-store';
import { usersByIds } from '../read-model/store';
import type { RouteDeps } from './deps';

const listParams = params({
  issue_iid: p.integer().required(),
  order_by: p.enum(['created_at', 'updated_at'] as const).default('created_at'),
  sort: p.enum(['asc', 'desc'] as const).default('desc'),
});
const createParams = params({
  issue_iid: p.integer().required(), body: p.string().required(), internal: p.boolean(), confidential: p.boolean(), created_at: p.datetime(),
});

const ISSUE_NOT_FOUND = () => new HttpError(404, { message: '404 Issue Not Found' });

/**
 * Issue notes: what exists so far of GitLab's Notes API (create with quick actions, list).
 * Every notes route needs authentication, as GitLab's.
 */
export function mountIssueNotes(router: Router, { db }: RouteDeps): void {
  // GET /projects/:id/issues/:issue_iid/notes
  router.get('/projects/:id/issues/:issue_iid/notes', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    const f = listParams.parse(req);
    const pc = await projectContext(db, c);
    const issue = await findReadableIssue(db, pc, f.issue_iid).catch(() => Promise.reject(ISSUE_NOT_FOUND()));
    const page = await paginate<NoteRow>(req, notesOf(db, 'Issue', issue.id, { by: f.order_by, sort: f.sort }, pc.level >= AccessLevel.PLANNER || pc.viewer.admin));
    const notes = page.items.map(noteFromRow);
    const users = await usersByIds(db, notes.map((n) => n.authorId));
    res.set(page.headers).json(notes.map((n) => toNote(n, users.get(n.authorId), issue.iid)));
  });

  // POST /projects/:id/issues/:issue_iid/notes
  router.post('/projects/:id/issues/:issue_iid/notes', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    const input = createParams.parse(req);
    const pc = await projectContext(db, c, true);
    const issue = await findReadableIssue(db, pc, input.issue_iid).catch(() => Promise.reject(ISSUE_NOT_FOUND()));
    const result = await createIssueNote(db, pc, issue, { body: input.body, internal: !!(input.internal ?? input.confidential), createdAt: input.created_at });
    if (!result.note) {
      res.status(202).json(toNoteCommands(result.commandsChanges, result.summary));
      return;
    }
    const users = await usersByIds(db, [c.user.id]);
    res.status(201).json(toNote(result.note, users.get(c.user.id), issue.iid, result.commandsChanges));
  });
}
