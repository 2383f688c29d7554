import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import { ctx, p, params, TooLargeError } from '@anvil/http';
import { committerOf, canPushProtected, requirePushCode, requireReadCode } from '../repository/access';
import { commitFile } from '../repository/commit-service';
import { toFileMetadata, toFile, metadataHeaders, rawHeaders } from '../entities/repository-file';
import { findFile } from '../repository/file-finder';
import { committablePath, validFilePath } from '../repository/file-paths';

/** What the repository routes need. */
export interface RepositoryRouteDeps {
  db: Knex;
  /** Largest file content accepted, in bytes (after base64 decoding). */
  maxFileBytes: number;
}

const BASE = '/projects/:id/repository/files/:file_path';
const readParams = params({ ref: p.string().required().notBlank() });
const rawParams = params({ ref: p.string().notBlank(), lfs: p.boolean().default(false) });
const deleteParams = params({
  branch: p.string().required().notBlank(), commit_message: p.string().required().notBlank(),
  start_branch: p.string(), author_email: p.string(), author_name: p.string(),
});
const writeParams = params({
  branch: p.string().required().notBlank(), commit_message: p.string().required().notBlank(), content: p.string().required(),
  start_branch: p.string(), encoding: p.enum(['text', 'base64'] as const).default('text'), author_email: p.string(), author_name: p.string(),
  last_commit_id: p.string(), execute_filemode: p.boolean(),
});

async function read(deps: RepositoryRouteDeps, req: Request, ref: string | undefined, path: string) {
  requireReadCode(ctx(req));
  return findFile(deps.db, ctx(req).project?.id as number, ref, path);
}

async function write(deps: RepositoryRouteDeps, req: Request, action: 'create' | 'update' | 'delete') {
  const path = validFilePath(req.params.file_path as string);
  const input = action === 'delete' ? { ...deleteParams.parse(req), content: undefined, encoding: 'text', last_commit_id: undefined, execute_filemode: undefined } : writeParams.parse(req);
  const c = ctx(req);
  const user = requirePushCode(c);
  const content = input.content === undefined ? null : Buffer.from(input.content, input.encoding === 'base64' ? 'base64' : 'utf8');
  if (content && content.length > deps.maxFileBytes) throw new TooLargeError();
  const me = committerOf(c, user);
  const author = { name: input.author_name ?? me.name, email: input.author_email ?? me.email };
  await commitFile(deps.db, {
    projectId: c.project?.id as number, actorId: user.id, branch: input.branch, startBranch: input.start_branch, path: committablePath(path),
    content, action, executable: input.execute_filemode, message: input.commit_message, author, committer: me,
    lastCommitId: input.last_commit_id, canPushProtected: canPushProtected(c),
  });
  return { file_path: path, branch: input.branch };
}

function json(res: Response, status: number, body: unknown): void {
  res.status(status).json(body);
}

/** GitLab's Repository Files API (lib/api/files.rb) without blame and LFS. */
export function mountRepositoryFiles(router: Router, deps: RepositoryRouteDeps): void {
  // GET /projects/:id/repository/files/:file_path/raw
  router.get(`${BASE}/raw`, async (req, res) => {
    const path = validFilePath(req.params.file_path as string, true);
    const file = await read(deps, req, rawParams.parse(req).ref, path);
    res.set({ ...rawHeaders(file), ...metadataHeaders(file, req.query.ref as string | undefined) }).status(200).end(file.content);
  });
  // HEAD /projects/:id/repository/files/:file_path
  router.head(BASE, async (req, res) => {
    const path = validFilePath(req.params.file_path as string);
    const { ref } = readParams.parse(req);
    res.set(metadataHeaders(await read(deps, req, ref, path), ref)).status(200).end();
  });
  // GET /projects/:id/repository/files/:file_path
  router.get(BASE, async (req, res) => {
    const path = validFilePath(req.params.file_path as string);
    const { ref } = readParams.parse(req);
    const file = await read(deps, req, ref, path);
    res.set(metadataHeaders(file, ref));
    json(res, 200, toFile(toFileMetadata(file, ref), file.content));
  });
  // POST /projects/:id/repository/files/:file_path
  router.post(BASE, async (req, res) => json(res, 201, await write(deps, req, 'create')));
  // PUT /projects/:id/repository/files/:file_path
  router.put(BASE, async (req, res) => json(res, 200, await write(deps, req, 'update')));
  // DELETE /projects/:id/repository/files/:file_path
  router.delete(BASE, async (req, res) => {
    await write(deps, req, 'delete');
    res.status(204).end();
  });
}
