import type { Request, Router } from 'express';
import type { RequestContext } from '@anvil/auth';
import { ctx, NotFoundError, p, paginate, params } from '@anvil/http';
import { ancestorGroupIds, OWNER_KINDS, OwnerKind, ownerOf, requireIssueAdmin } from '../access/owner-scope';
import { MilestoneUrls, toMilestone } from '../entities/milestone';
import { createMilestone, deleteMilestone, updateMilestone } from '../milestones/milestone-service';
import { findOwnMilestone, Milestone, milestoneFromRow, MilestoneRow } from '../milestones/milestone-store';
import { MilestonesFinder } from '../milestones/milestones-finder';
import { groupsByIds } from '../read-model/store';
import type { RouteDeps } from './deps';

const listParams = params({
  state: p.enum(['active', 'closed'] as const),
  title: p.string(),
  search: p.string(),
  iids: p.array(p.integer()),
  include_ancestors: p.boolean().default(false),
  include_parent_milestones: p.boolean().default(false),
});
const idParam = params({ milestone_id: p.integer().required() });
const createParams = params({ title: p.string().required(), description: p.string(), due_date: p.string(), start_date: p.string() });
const updateParams = params({
  milestone_id: p.integer().required(), title: p.string(), description: p.string(), due_date: p.string(), start_date: p.string(),
  state_event: p.enum(['close', 'activate'] as const),
}, { atLeastOneOf: [['title', 'description', 'due_date', 'start_date', 'state_event']] });

function urls(c: RequestContext, groupPaths: [number, string][] = []): MilestoneUrls {
  const projectPaths = new Map<number, string>();
  if (c.project) projectPaths.set(c.project.id, c.project.path_with_namespace);
  const paths = new Map<number, string>(c.group ? [[c.group.id, c.group.full_path]] : []);
  for (const [id, path] of groupPaths) paths.set(id, path);
  return { base: c.base.replace(/\/$/, ''), projectPaths, groupPaths: paths };
}

/** The groups whose milestones a list shows: none, the group itself, or the ancestors when asked. */
async function listedGroups(deps: RouteDeps, kind: OwnerKind, c: RequestContext, withAncestors: boolean): Promise<number[]> {
  if (withAncestors) return ancestorGroupIds(deps.db, c);
  return kind === 'groups' ? [c.group?.id as number] : [];
}

function actorId(req: Request): number | null {
  return ctx(req).user?.id ?? null;
}

async function load(deps: RouteDeps, kind: OwnerKind, req: Request): Promise<Milestone> {
  const { milestone_id } = idParam.parse(req);
  const m = await findOwnMilestone(deps.db, ownerOf(kind, ctx(req)), milestone_id);
  if (!m) throw new NotFoundError('Milestone');
  return m;
}

function mountFor(router: Router, deps: RouteDeps, kind: OwnerKind): void {
  const base = `/${kind}/:id/milestones`;
  // GET /projects/:id/milestones, GET /groups/:id/milestones
  router.get(base, async (req, res) => {
    const f = listParams.parse(req);
    const c = ctx(req);
    const groupIds = await listedGroups(deps, kind, c, f.include_ancestors || f.include_parent_milestones);
    const page = await paginate<MilestoneRow>(req, new MilestonesFinder(deps.db, ownerOf(kind, c).projectId, groupIds, f).execute());
    const groups = await groupsByIds(deps.db, groupIds);
    const u = urls(c, [...groups.values()].map((g) => [g.id, g.full_path]));
    res.set(page.headers).json(page.items.map((m) => toMilestone(milestoneFromRow(m), u)));
  });
  // GET /projects/:id/milestones/:milestone_id
  router.get(`${base}/:milestone_id`, async (req, res) => {
    res.json(toMilestone(await load(deps, kind, req), urls(ctx(req))));
  });
  // POST /projects/:id/milestones
  router.post(base, async (req, res) => {
    requireIssueAdmin(kind, ctx(req));
    const input = createParams.parse(req);
    const m = await createMilestone(deps.db, ownerOf(kind, ctx(req)), { title: input.title, description: input.description, dueDate: input.due_date, startDate: input.start_date }, actorId(req));
    res.status(201).json(toMilestone(m, urls(ctx(req))));
  });
  // PUT /projects/:id/milestones/:milestone_id
  router.put(`${base}/:milestone_id`, async (req, res) => {
    requireIssueAdmin(kind, ctx(req));
    const input = updateParams.parse(req);
    const m = await load(deps, kind, req);
    const updated = await updateMilestone(deps.db, ownerOf(kind, ctx(req)), m, {
      title: input.title, description: input.description, dueDate: input.due_date, startDate: input.start_date, stateEvent: input.state_event,
    }, actorId(req));
    res.json(toMilestone(updated, urls(ctx(req))));
  });
  // DELETE /projects/:id/milestones/:milestone_id
  router.delete(`${base}/:milestone_id`, async (req, res) => {
    requireIssueAdmin(kind, ctx(req));
    await deleteMilestone(deps.db, await load(deps, kind, req), actorId(req));
    res.status(204).end();
  });
}

/** GitLab's project and group milestones APIs (list, get, create, edit, delete). */
export function mountMilestones(router: Router, deps: RouteDeps): void {
  for (const kind of OWNER_KINDS) mountFor(router, deps, kind);
}
