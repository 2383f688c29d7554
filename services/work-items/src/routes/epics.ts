import type { Request, Router } from 'express';
import { groupAccess } from '@anvil/auth';
import { ctx, ForbiddenError, NotFoundError, p, paginate, params, UnauthorizedError, ValidationError } from '@anvil/http';
import { ISSUE_ADMIN_LEVEL } from '../access/viewer';
import { toEpic } from '../entities/epic';
import { createEpic, epicByIid, EpicRow } from '../epics/epic-store';
import { ensureActor } from '../read-model/store';
import type { RouteDeps } from './deps';

const iidParam = params({ epic_iid: p.integer().required() });
const createParams = params({ title: p.string().required(), description: p.string(), confidential: p.boolean() });
const listParams = params({ state: p.enum(['opened', 'closed', 'all'] as const).default('all'), search: p.string() });

function groupPath(req: Request): string {
  return ctx(req).group?.full_path ?? '';
}

function base(req: Request): string {
  return ctx(req).base.replace(/\/$/, '');
}

/** Thin group epics (higher tier): list, get, create — what issues and `/promote` need. */
export function mountEpics(router: Router, { db }: RouteDeps): void {
  // GET /groups/:id/epics
  router.get('/groups/:id/epics', async (req, res) => {
    const f = listParams.parse(req);
    const q = db('epics').where({ group_id: ctx(req).group?.id });
    if (f.state !== 'all') q.where({ state: f.state });
    if (f.search) q.where((w) => w.whereILike('title', `%${f.search}%`).orWhereILike('description', `%${f.search}%`));
    const { items: rows, headers } = await paginate<EpicRow>(req, q.orderBy('created_at', 'desc').orderBy('id', 'desc'));
    res.set(headers);
    res.json(rows.map((e) => toEpic(e, base(req), groupPath(req))));
  });

  // GET /groups/:id/epics/:epic_iid
  router.get('/groups/:id/epics/:epic_iid', async (req, res) => {
    const { epic_iid } = iidParam.parse(req);
    const epic = await epicByIid(db, ctx(req).group?.id as number, epic_iid);
    if (!epic) throw new NotFoundError('Epic');
    res.json(toEpic(epic, base(req), groupPath(req)));
  });

  // POST /groups/:id/epics
  router.post('/groups/:id/epics', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    if (groupAccess(c) < ISSUE_ADMIN_LEVEL) throw new ForbiddenError();
    const input = createParams.parse(req);
    if (!input.title.trim()) throw new ValidationError({ title: ["can't be blank"] });
    await ensureActor(db, c.user, c.base);
    const epic = await createEpic(db, { group_id: c.group?.id as number, title: input.title, description: input.description ?? null, author_id: c.user.id, confidential: !!input.confidential });
    res.status(201).json(toEpic(epic, base(req), groupPath(req)));
  });
}
