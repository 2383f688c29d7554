import type { Request, Router } from 'express';
import type { RequestContext } from '@anvil/auth';
import { checkUnmodifiedSince, ctx, NotFoundError, p, paginate, params } from '@anvil/http';
import { toBranch } from '../entities/branch';
import { canPushCode, canPushProtected, committerOf, projectWeb, requirePushCode, requireReadCode } from '../repository/access';
import { createBranch, deleteBranch } from '../repository/branch-service';
import { BranchView, branchViews } from '../repository/branch-views';
import { BRANCH_SORTS, BranchesFinder } from '../repository/branches-finder';
import { BranchRow, getBranch } from '../repository/repository-store';
import type { RepositoryRouteDeps } from './repository-files';

const BASE = '/projects/:id/repository/branches';
const listParams = params({ search: p.string(), regex: p.string(), sort: p.enum(BRANCH_SORTS), page_token: p.string() });
const createParams = params({ branch: p.string().required().notBlank(), ref: p.string().required().notBlank() });

function projectId(req: Request): number {
  return ctx(req).project?.id as number;
}

function present(c: RequestContext, v: BranchView) {
  return toBranch(v.row, v.head, { merged: v.merged, isDefault: v.isDefault, canPush: v.isDefault ? canPushProtected(c) : canPushCode(c) }, projectWeb(c));
}

async function load(deps: RepositoryRouteDeps, req: Request): Promise<BranchRow> {
  const branch = await getBranch(deps.db, projectId(req), req.params.branch as string);
  if (!branch) throw new NotFoundError('Branch');
  return branch;
}

/** GitLab's Branches API (lib/api/branches.rb) without protection and merged-branch cleanup. */
export function mountBranches(router: Router, deps: RepositoryRouteDeps): void {
  // GET /projects/:id/repository/branches
  router.get(BASE, async (req, res) => {
    const f = listParams.parse(req);
    requireReadCode(ctx(req));
    const page = await paginate<BranchRow>(req, new BranchesFinder(deps.db, projectId(req), { ...f, pageToken: f.page_token }).execute());
    const views = await branchViews(deps.db, projectId(req), page.items);
    res.set(page.headers).json(views.map((v) => present(ctx(req), v)));
  });
  // HEAD /projects/:id/repository/branches/:branch
  router.head(`${BASE}/:branch`, async (req, res) => {
    requireReadCode(ctx(req));
    await load(deps, req);
    res.status(204).end();
  });
  // GET /projects/:id/repository/branches/:branch
  router.get(`${BASE}/:branch`, async (req, res) => {
    requireReadCode(ctx(req));
    const [view] = await branchViews(deps.db, projectId(req), [await load(deps, req)]);
    res.json(present(ctx(req), view));
  });
  // POST /projects/:id/repository/branches
  router.post(BASE, async (req, res) => {
    const input = createParams.parse(req);
    const c = ctx(req);
    const user = requirePushCode(c);
    const actor = { actorId: user.id, ...committerOf(c, user), canPushProtected: canPushProtected(c) };
    const [view] = await branchViews(deps.db, projectId(req), [await createBranch(deps.db, projectId(req), input.branch, input.ref, actor)]);
    res.status(201).json(present(c, view));
  });
  // DELETE /projects/:id/repository/branches/:branch
  router.delete(`${BASE}/:branch`, async (req, res) => {
    const user = requirePushCode(ctx(req));
    const [view] = await branchViews(deps.db, projectId(req), [await load(deps, req)]);
    checkUnmodifiedSince(req, view.head.authored_at);
    await deleteBranch(deps.db, projectId(req), view.row.name, user.id);
    res.status(204).end();
  });
}
