import type { Request, Router } from 'express';
import { RequestContext } from '@anvil/auth';
import { ctx, NotFoundError, p, paginate, params } from '@anvil/http';
import { ancestorGroupIds, OWNER_KINDS, OwnerKind, ownerOf, requireIssueAdmin } from '../access/owner-scope';
import { toLabel } from '../entities/label';
import { createLabel, deleteLabel, updateLabel } from '../labels/label-service';
import { findOwnLabel, Label, LabelCounts, labelCounts, labelFromRow, LabelRow } from '../labels/label-store';
import { LabelsFinder } from '../labels/labels-finder';
import type { RouteDeps } from './deps';

const listParams = params({ with_counts: p.boolean().default(false), include_ancestor_groups: p.boolean().default(true), search: p.string() });
const refParam = params({ label_id: p.string().required() });
const createParams = params({ name: p.string().required(), color: p.string().required(), description: p.string(), priority: p.integer() });
const updateParams = params({ label_id: p.string().required(), new_name: p.string(), color: p.string(), description: p.string(), priority: p.integer() }, {
  atLeastOneOf: [['new_name', 'color', 'description', 'priority']],
});

async function load(deps: RouteDeps, kind: OwnerKind, req: Request): Promise<Label> {
  const { label_id } = refParam.parse(req);
  const label = await findOwnLabel(deps.db, ownerOf(kind, ctx(req)), decodeURIComponent(label_id));
  if (!label) throw new NotFoundError('Label');
  return label;
}

function actorId(req: Request): number | null {
  return ctx(req).user?.id ?? null;
}

function present(kind: OwnerKind, c: RequestContext, l: Label, counts?: LabelCounts) {
  return toLabel(l, { projectId: kind === 'projects' ? c.project?.id : undefined, counts });
}

function mountFor(router: Router, deps: RouteDeps, kind: OwnerKind): void {
  const base = `/${kind}/:id/labels`;
  // GET /projects/:id/labels, GET /groups/:id/labels
  router.get(base, async (req, res) => {
    const f = listParams.parse(req);
    const c = ctx(req);
    const ancestors = f.include_ancestor_groups ? await ancestorGroupIds(deps.db, c) : [];
    const page = await paginate<LabelRow>(req, new LabelsFinder(deps.db, ownerOf(kind, c), ancestors, f).execute());
    const labels = page.items.map(labelFromRow);
    const counts = f.with_counts ? await labelCounts(deps.db, labels.map((l) => l.id)) : undefined;
    res.set(page.headers).json(labels.map((l) => present(kind, c, l, counts?.get(l.id))));
  });
  // GET /projects/:id/labels/:label_id
  router.get(`${base}/:label_id`, async (req, res) => {
    res.json(present(kind, ctx(req), await load(deps, kind, req)));
  });
  // POST /projects/:id/labels
  router.post(base, async (req, res) => {
    requireIssueAdmin(kind, ctx(req));
    const input = createParams.parse(req);
    const label = await createLabel(deps.db, ownerOf(kind, ctx(req)), { title: input.name, color: input.color, description: input.description, priority: input.priority }, actorId(req));
    res.status(201).json(present(kind, ctx(req), label));
  });
  // DELETE /projects/:id/labels/:label_id
  router.delete(`${base}/:label_id`, async (req, res) => {
    requireIssueAdmin(kind, ctx(req));
    await deleteLabel(deps.db, await load(deps, kind, req), actorId(req));
    res.status(204).end();
  });
  // PUT /projects/:id/labels/:label_id
  router.put(`${base}/:label_id`, async (req, res) => {
    requireIssueAdmin(kind, ctx(req));
    const input = updateParams.parse(req);
    const label = await updateLabel(deps.db, await load(deps, kind, req), { title: input.new_name, color: input.color, description: input.description, priority: input.priority }, actorId(req));
    res.json(present(kind, ctx(req), label));
  });
}

/** GitLab's project and group labels APIs (list, get, create, edit, delete). */
export function mountLabels(router: Router, deps: RouteDeps): void {
  for (const kind of OWNER_KINDS) mountFor(router, deps, kind);
}
