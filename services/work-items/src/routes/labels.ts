import type { Request, Router } from 'express';
import { groupAccess, projectAccess, RequestContext } from '@anvil/auth';
import { ctx, ForbiddenError, NotFoundError, p, paginate, params, UnauthorizedError } from '@anvil/http';
import { ISSUE_ADMIN_LEVEL } from '../access/viewer';
import { toLabel } from '../entities/label';
import { createLabel, deleteLabel, findOwnLabel, labelCounts, LabelOwner, updateLabel } from '../labels/label-service';
import type { LabelRow } from '../labels/label-store';
import { groupById } from '../read-model/store';
import type { RouteDeps } from './deps';

const listParams = params({ with_counts: p.boolean().default(false), include_ancestor_groups: p.boolean().default(true), search: p.string() });
const refParam = params({ label_id: p.string().required() });
const createParams = params({ name: p.string().required(), color: p.string().required(), description: p.string(), priority: p.integer() });
const updateParams = params({ label_id: p.string().required(), new_name: p.string(), color: p.string(), description: p.string(), priority: p.integer() }, {
  atLeastOneOf: [['new_name', 'color', 'description', 'priority']],
});

type Kind = 'projects' | 'groups';

function owner(kind: Kind, c: RequestContext): LabelOwner {
  return kind === 'projects' ? { projectId: c.project?.id as number, groupId: null } : { projectId: null, groupId: c.group?.id as number };
}

function requireAdmin(kind: Kind, req: Request): void {
  const c = ctx(req);
  if (!c.user) throw new UnauthorizedError();
  if ((kind === 'projects' ? projectAccess(c) : groupAccess(c)) < ISSUE_ADMIN_LEVEL) throw new ForbiddenError();
}

async function ancestorGroups(deps: RouteDeps, kind: Kind, c: RequestContext): Promise<number[]> {
  if (kind === 'groups') return (await groupById(deps.db, c.group?.id as number))?.traversal_ids ?? [c.group?.id as number];
  const row = await deps.db('projects').select('group_traversal_ids').where({ id: c.project?.id }).first();
  return row?.group_traversal_ids?.length ? row.group_traversal_ids : c.project?.group_id ? [c.project.group_id] : [];
}

async function load(deps: RouteDeps, kind: Kind, req: Request): Promise<LabelRow> {
  const { label_id } = refParam.parse(req);
  const label = await findOwnLabel(deps.db, owner(kind, ctx(req)), decodeURIComponent(label_id));
  if (!label) throw new NotFoundError('Label');
  return label;
}

function present(kind: Kind, c: RequestContext, l: LabelRow, counts?: Parameters<typeof toLabel>[1]['counts']) {
  return toLabel(l, { projectId: kind === 'projects' ? c.project?.id : undefined, counts });
}

function mountFor(router: Router, deps: RouteDeps, kind: Kind): void {
  const base = `/${kind}/:id/labels`;
  // GET /projects/:id/labels, GET /groups/:id/labels
  router.get(base, async (req, res) => {
    const f = listParams.parse(req);
    const c = ctx(req);
    const own = owner(kind, c);
    const groups = f.include_ancestor_groups ? await ancestorGroups(deps, kind, c) : [];
    const q = deps.db('labels').where((w) => {
      if (own.projectId !== null) w.where('project_id', own.projectId);
      else w.where('group_id', own.groupId);
      if (groups.length) w.orWhereIn('group_id', groups);
    });
    if (f.search) q.whereILike('title', `%${f.search}%`);
    const { items: rows, headers } = await paginate<LabelRow>(req, q.orderBy('title').orderBy('id'));
    res.set(headers);
    const counts = f.with_counts ? await labelCounts(deps.db, rows.map((r) => r.id)) : undefined;
    res.json(rows.map((l) => present(kind, c, l, counts?.get(l.id))));
  });
  // GET /projects/:id/labels/:label_id
  router.get(`${base}/:label_id`, async (req, res) => {
    res.json(present(kind, ctx(req), await load(deps, kind, req)));
  });
  // POST /projects/:id/labels
  router.post(base, async (req, res) => {
    requireAdmin(kind, req);
    const input = createParams.parse(req);
    const label = await createLabel(deps.db, owner(kind, ctx(req)), { title: input.name, color: input.color, description: input.description, priority: input.priority });
    res.status(201).json(present(kind, ctx(req), label));
  });
  // PUT /projects/:id/labels/:label_id
  router.put(`${base}/:label_id`, async (req, res) => {
    requireAdmin(kind, req);
    const input = updateParams.parse(req);
    const label = await updateLabel(deps.db, await load(deps, kind, req), { title: input.new_name, color: input.color, description: input.description, priority: input.priority });
    res.json(present(kind, ctx(req), label));
  });
  // DELETE /projects/:id/labels/:label_id
  router.delete(`${base}/:label_id`, async (req, res) => {
    requireAdmin(kind, req);
    await deleteLabel(deps.db, await load(deps, kind, req));
    res.status(204).end();
  });
}

/** GitLab's project and group labels APIs (list, get, create, edit, delete). */
export function mountLabels(router: Router, deps: RouteDeps): void {
  mountFor(router, deps, 'projects');
  mountFor(router, deps, 'groups');
}
