import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import { checkUnmodifiedSince, ctx, ForbiddenError, NotFoundError, p, paginate, params, RecordNotFoundError, UnauthorizedError } from '@anvil/http';
import { projectContext, ProjectContext } from '../access/project-context';
import { SNIPPET_REF, toProjectSnippet, toUserAgentDetail } from '../entities/snippet';
import { usersByIds } from '../read-model/store';
import { loadVisible, snippetViewer, visibleSnippets } from '../snippets/snippet-finder';
import { assertCanAdminSnippet, createSnippet, deleteSnippet, updateSnippet } from '../snippets/snippet-service';
import { findSnippet, Snippet, snippetFilePaths, snippetFiles, snippetFromRow, SnippetRow } from '../snippets/snippet-store';
import type { RouteDeps } from './deps';
import { inlineDisposition } from './raw-content';
import { createSnippetParams, toNewSnippet, toSnippetChanges, updateSnippetParams } from './snippet-params';

const idParam = params({ snippet_id: p.integer().required() });
const fileParams = params({ snippet_id: p.integer().required(), ref: p.string().required(), file_path: p.string().required() });

/** GitLab's two 404s: `find` (`404 Not found`) on GET, `find_by` + `not_found!('Snippet')` elsewhere. */
const recordNotFound = () => new RecordNotFoundError();
const snippetNotFound = () => new NotFoundError('Snippet');

function requireUser(req: Request): void {
  if (!ctx(req).user) throw new UnauthorizedError();
}

/** GitLab's `authenticated_as_admin!`: 401 anonymous, 403 for anyone but an administrator. */
function requireAdmin(req: Request): void {
  requireUser(req);
  if (!ctx(req).user?.admin) throw new ForbiddenError();
}

/** The caller's address: the last `X-Forwarded-For` hop (the one the gateway added), else the peer. */
function clientAddress(req: Request): string | null {
  const hops = (req.get('x-forwarded-for') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  return hops.pop() ?? req.socket.remoteAddress ?? null;
}

async function present(db: Knex, pc: ProjectContext, snippets: Snippet[]): Promise<Record<string, unknown>[]> {
  const paths = await snippetFilePaths(db, snippets.map((s) => s.id));
  const users = await usersByIds(db, snippets.map((s) => s.authorId));
  const o = { base: pc.base, projectPath: pc.pathWithNamespace };
  return snippets.map((s) => toProjectSnippet({ snippet: s, filePaths: paths.get(s.id) ?? [], author: users.get(s.authorId) }, o));
}

async function load(db: Knex, pc: ProjectContext, snippetId: number, notFound: () => Error): Promise<Snippet> {
  return loadVisible(db, pc.id, snippetId, snippetViewer(pc), notFound);
}

/** Grape's `content_type 'text/plain'` (no charset; express's `set` would add one). */
function sendText(res: Response, body: string, disposition: string): void {
  res.status(200).setHeader('Content-Type', 'text/plain');
  res.setHeader('Content-Disposition', disposition);
  res.end(body);
}

/** Project snippets: list, get, create, edit, delete, raw content, user agent detail (`lib/api/project_snippets.rb`). */
export function mountProjectSnippets(router: Router, { db }: RouteDeps): void {
  // GET /projects/:id/snippets
  router.get('/projects/:id/snippets', async (req, res) => {
    requireUser(req);
    const pc = await projectContext(db, ctx(req));
    const page = await paginate<SnippetRow>(req, visibleSnippets(db, pc.id, snippetViewer(pc)));
    res.set(page.headers).json(await present(db, pc, page.items.map(snippetFromRow)));
  });

  // GET /projects/:id/snippets/:snippet_id
  router.get('/projects/:id/snippets/:snippet_id', async (req, res) => {
    const { snippet_id } = idParam.parse(req);
    const pc = await projectContext(db, ctx(req));
    res.json((await present(db, pc, [await load(db, pc, snippet_id, recordNotFound)]))[0]);
  });

  // POST /projects/:id/snippets
  router.post('/projects/:id/snippets', async (req, res) => {
    const input = createSnippetParams.parse(req);
    requireUser(req);
    const pc = await projectContext(db, ctx(req), true);
    const snippet = await createSnippet(db, pc, { ...toNewSnippet(input), userAgent: req.get('user-agent') ?? null, ipAddress: clientAddress(req) });
    res.status(201).json((await present(db, pc, [snippet]))[0]);
  });

  // PUT /projects/:id/snippets/:snippet_id
  router.put('/projects/:id/snippets/:snippet_id', async (req, res) => {
    const input = updateSnippetParams.parse(req);
    requireUser(req);
    const pc = await projectContext(db, ctx(req), true);
    const snippet = await load(db, pc, input.snippet_id, snippetNotFound);
    const updated = await updateSnippet(db, pc, snippet, toSnippetChanges(input));
    res.json((await present(db, pc, [updated]))[0]);
  });

  // DELETE /projects/:id/snippets/:snippet_id
  router.delete('/projects/:id/snippets/:snippet_id', async (req, res) => {
    const { snippet_id } = idParam.parse(req);
    requireUser(req);
    const pc = await projectContext(db, ctx(req));
    const snippet = await load(db, pc, snippet_id, snippetNotFound);
    assertCanAdminSnippet(pc, snippet);
    checkUnmodifiedSince(req, snippet.updatedAt);
    await deleteSnippet(db, pc, snippet);
    res.status(204).end();
  });

  // GET /projects/:id/snippets/:snippet_id/raw
  router.get('/projects/:id/snippets/:snippet_id/raw', async (req, res) => {
    const { snippet_id } = idParam.parse(req);
    const pc = await projectContext(db, ctx(req));
    const snippet = await load(db, pc, snippet_id, snippetNotFound);
    sendText(res, snippet.content, 'attachment');
  });

  // GET /projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw
  router.get('/projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', async (req, res) => {
    const { snippet_id, ref, file_path } = fileParams.parse(req);
    const pc = await projectContext(db, ctx(req));
    const snippet = await load(db, pc, snippet_id, snippetNotFound);
    if (ref !== SNIPPET_REF && ref !== 'HEAD') throw new NotFoundError('Reference');
    const file = (await snippetFiles(db, snippet.id)).find((f) => f.path === file_path);
    if (!file) throw new NotFoundError('File');
    sendText(res, file.content, inlineDisposition(file.path));
  });

  // GET /projects/:id/snippets/:snippet_id/user_agent_detail
  router.get('/projects/:id/snippets/:snippet_id/user_agent_detail', async (req, res) => {
    const { snippet_id } = idParam.parse(req);
    requireAdmin(req);
    const snippet = await findSnippet(db, (await projectContext(db, ctx(req))).id, snippet_id);
    if (!snippet) throw new RecordNotFoundError();
    const detail = toUserAgentDetail(snippet);
    if (!detail) throw new NotFoundError('UserAgentDetail');
    res.json(detail);
  });
}
