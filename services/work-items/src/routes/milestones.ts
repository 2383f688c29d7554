import type { Request, Router } from 'express';
import { ctx, ForbiddenError, NotFoundError, p, paginate, params, UnauthorizedError } from '@anvil/http';
import { groupAccess, projectAccess, RequestContext } from '@anvil/auth';
import { ISSUE_ADMIN_LEVEL } from '../access/viewer';
import { toMilestone } from '../entities/milestone';
import { createMilestone, deleteMilestone, MilestoneOwner, updateMilestone } from '../milestones/milestone-service';
import { findOwnMilestone, listMilestones, MilestoneRow } from '../milestones/milestone-store';
import { groupById } from '../read-model/store';
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

type Kind = 'projects' | 'groups';

function owner(kind: Kind, c: RequestContext): MilestoneOwner {
  return kind === 'projects' ? { projectId: c.project?.id as number, groupId: null } : { projectId: null, groupId: c.group?.id as number };
}

function urls(c: RequestContext) {
  const projectPaths = new Map<number, string>();
  const groupPaths = new Map<number, string>();
  if (c.project) projectPaths.set(c.project.id, c.project.path_with_namespace);
  if (c.group) groupPaths.set(c.group.id, c.group.full_path);
  return { base: c.base.replace(/\/$/, ''), projectPaths, groupPaths };
}

function requireAdmin(kind: Kind, req: Request): void {
  const c = ctx(req);
  if (!c.user) throw new UnauthorizedError();
  const level = kind === 'projects' ? projectAccess(c) : groupAccess(c);
  if (level < ISSUE_ADMIN_LEVEL) throw new ForbiddenError();
}

async function ancestorIds(deps: RouteDeps, c: RequestContext): Promise<number[]> {
  if (c.group) return (await groupById(deps.db, c.group.id))?.traversal_ids ?? [c.group.id];
  const row = await deps.db('projects').select('group_traversal_ids').where({ id: c.project?.id }).first();
  return row?.group_traversal_ids ?? (c.project?.group_id ? [c.project.group_id] : []);
}

async function load(deps: RouteDeps, kind: Kind, req: Request): Promise<MilestoneRow> {
  const { milestone_id } = idParam.parse(req);
  const m = await findOwnMilestone(deps.db, owner(kind, ctx(req)), milestone_id);
  if (!m) throw new NotFoundError('Milestone');
  return m;
}

function mountFor(router: Router, deps: RouteDeps, kind: Kind): void {
  const base = `/${kind}/:id/milestones`;
  // GET /projects/:id/milestones, GET /groups/:id/milestones
  router.get(base, async (req, res) => {
    const f = listParams.parse(req);
    const c = ctx(req);
    const own = owner(kind, c);
    const withAncestors = f.include_ancestors || f.include_parent_milestones;
    const groupIds = kind === 'groups' ? (withAncestors ? await ancestorIds(deps, c) : [own.groupId as number]) : withAncestors ? await ancestorIds(deps, c) : [];
    const { items: rows, headers } = await paginate<MilestoneRow>(req, listMilestones(deps.db, { projectId: own.projectId, groupIds }, f));
    res.set(headers);
    const u = urls(c);
    for (const g of (await deps.db('groups').select('id', 'full_path').whereIn('id', groupIds)) as { id: number; full_path: string }[]) u.groupPaths.set(g.id, g.full_path);
    res.json(rows.map((m) => toMilestone(m, u)));
  });
  // GET /projects/:id/milestones/:milestone_id
  router.get(`${base}/:milestone_id`, async (req, res) => {
    res.json(toMilestone(await load(deps, kind, req), urls(ctx(req))));
  });
  // POST /projects/:id/milestones
  router.post(base, async (req, res) => {
    requireAdmin(kind, req);
    const input = createParams.parse(req);
    const m = await createMilestone(deps.db, owner(kind, ctx(req)), { title: input.title, description: input.description, dueDate: input.due_date, startDate: input.start_date });
    res.status(201).json(toMilestone(m, urls(ctx(req))));
  });
  // PUT /projects/:id/milestones/:milestone_id
  router.put(`${base}/:milestone_id`, async (req, res) => {
    requireAdmin(kind, req);
    const input = updateParams.parse(req);
    const m = await load(deps, kind, req);
    const updated = await updateMilestone(deps.db, owner(kind, ctx(req)), m, {
      title: input.title, description: input.description, dueDate: input.due_date, startDate: input.start_date, stateEvent: input.state_event,
    });
    res.json(toMilestone(updated, urls(ctx(req))));
  });
  // DELETE /projects/:id/milestones/:milestone_id
  router.delete(`${base}/:milestone_id`, async (req, res) => {
    requireAdmin(kind, req);
    await deleteMilestone(deps.db, await load(deps, kind, req));
    res.status(204).end();
  });
}

/** GitLab's project and group milestones APIs (list, get, create, edit, delete). */
export function mountMilestones(router: Router, deps: RouteDeps): void {
  mountFor(router, deps, 'projects');
  mountFor(router, deps, 'groups');
}
