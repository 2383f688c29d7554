import type { Request, Response, Router } from 'express';
import { ctx, UnauthorizedError } from '@anvil/http';
import { levelOn, viewerOf } from '../access/viewer';
import { FinderParent, IssueFinder } from '../issues/finder/issue-finder';
import type { IssueFilters } from '../issues/finder/filters';
import { paginateIssues } from '../issues/finder/paginate-issues';
import type { ReferenceOrigin } from '../issues/references';
import type { RouteDeps } from './deps';
import { globalListParams, groupListParams, projectListParams, toFilters } from './list-params';
import { presentIssues } from './present';

async function list(deps: RouteDeps, req: Request, res: Response, parent: FinderParent, filters: IssueFilters, origin: ReferenceOrigin, details: boolean): Promise<void> {
  const { db } = deps;
  const c = ctx(req);
  const finder = new IssueFinder(db, viewerOf(c), parent, filters);
  const { items, headers } = await paginateIssues(req, db, finder);
  res.set(headers).json(await presentIssues(db, items, { base: c.base.replace(/\/$/, ''), origin, withLabelsDetails: details }));
}

async function statistics(res: Response, finder: IssueFinder): Promise<void> {
  res.json({ statistics: { counts: await finder.stateCounts() } });
}

function projectParent(req: Request): FinderParent {
  const c = ctx(req);
  return { kind: 'project', projectId: c.project?.id as number, level: levelOn(c) };
}

/** The issue lists (instance, group with subgroups, project) and their statistics. */
export function mountIssueLists(router: Router, deps: RouteDeps): void {
  const { db } = deps;
  // GET /issues
  router.get('/issues', async (req, res) => {
    const input = globalListParams.parse(req);
    if (input.scope !== 'all' && !ctx(req).user) throw new UnauthorizedError();
    await list(deps, req, res, { kind: 'none' }, toFilters(input), { kind: 'none' }, input.with_labels_details);
  });

  // GET /groups/:id/issues
  router.get('/groups/:id/issues', async (req, res) => {
    const input = groupListParams.parse(req);
    const groupId = ctx(req).group?.id as number;
    await list(deps, req, res, { kind: 'group', groupId }, toFilters(input), { kind: 'group', id: groupId }, input.with_labels_details);
  });

  // GET /projects/:id/issues
  router.get('/projects/:id/issues', async (req, res) => {
    const input = projectListParams.parse(req);
    const c = ctx(req);
    const origin: ReferenceOrigin = { kind: 'project', id: c.project?.id as number, namespaceId: c.project?.namespace_id as number };
    await list(deps, req, res, projectParent(req), toFilters(input), origin, input.with_labels_details);
  });

  // GET /issues_statistics
  router.get('/issues_statistics', async (req, res) => {
    const input = globalListParams.parse(req);
    const c = ctx(req);
    if (input.scope !== 'all' && !c.user) throw new UnauthorizedError();
    await statistics(res, new IssueFinder(db, viewerOf(c), { kind: 'none' }, { ...toFilters(input), state: 'all', nonArchived: undefined }));
  });

  // GET /groups/:id/issues_statistics
  router.get('/groups/:id/issues_statistics', async (req, res) => {
    const c = ctx(req);
    const input = groupListParams.parse(req);
    await statistics(res, new IssueFinder(db, viewerOf(c), { kind: 'group', groupId: c.group?.id as number }, { ...toFilters(input), state: 'all', nonArchived: undefined }));
  });

  // GET /projects/:id/issues_statistics
  router.get('/projects/:id/issues_statistics', async (req, res) => {
    const input = projectListParams.parse(req);
    await statistics(res, new IssueFinder(db, viewerOf(ctx(req)), projectParent(req), { ...toFilters(input), state: 'all' }));
  });
}
