import type { Request, Router } from 'express';
import { ctx, NotFoundError, p, paginate, params } from '@anvil/http';
import { requireIssueAdmin } from '../access/owner-scope';
import { toEpic } from '../entities/epic';
import { createGroupEpic } from '../epics/epic-service';
import { epicByIid, epicFromRow, EpicRow } from '../epics/epic-store';
import { EpicsFinder } from '../epics/epics-finder';
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

function groupId(req: Request): number {
  return ctx(req).group?.id as number;
}

/** Thin group epics (higher tier): list, get, create — what issues and `/promote` need. */
export function mountEpics(router: Router, { db }: RouteDeps): void {
  // GET /groups/:id/epics
  router.get('/groups/:id/epics', async (req, res) => {
    const page = await paginate<EpicRow>(req, new EpicsFinder(db, groupId(req), listParams.parse(req)).execute());
    res.set(page.headers).json(page.items.map((e) => toEpic(epicFromRow(e), base(req), groupPath(req))));
  });

  // GET /groups/:id/epics/:epic_iid
  router.get('/groups/:id/epics/:epic_iid', async (req, res) => {
    const epic = await epicByIid(db, groupId(req), iidParam.parse(req).epic_iid);
    if (!epic) throw new NotFoundError('Epic');
    res.json(toEpic(epic, base(req), groupPath(req)));
  });

  // POST /groups/:id/epics
  router.post('/groups/:id/epics', async (req, res) => {
    const actor = requireIssueAdmin('groups', ctx(req));
    const input = createParams.parse(req);
    const epic = await createGroupEpic(db, actor, ctx(req).base, groupId(req), input);
    res.status(201).json(toEpic(epic, base(req), groupPath(req)));
  });
}
