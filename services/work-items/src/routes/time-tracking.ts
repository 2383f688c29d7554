import type { Request, Router } from 'express';
import { ctx, ForbiddenError, p, params, UnauthorizedError } from '@anvil/http';
import { projectContext, ProjectContext } from '../access/project-context';
import { toTimeStats } from '../entities/time-stats';
import { findReadableIssue } from '../issues/issue-access';
import type { Issue } from '../issues/issue-row';
import { assertWritable, canAdminIssue } from '../issues/policy';
import { setEstimate, spendTime } from '../time-tracking/time-tracking-service';
import type { RouteDeps } from './deps';

const iidParam = params({ issue_iid: p.integer().required() });
const durationParams = params({ issue_iid: p.integer().required(), duration: p.string().required() });
const spentParams = params({ issue_iid: p.integer().required(), duration: p.string().required(), summary: p.string() });

/** The issue of a time-tracking write: authenticated (401), readable (404), `admin_issue` (403). */
async function adminIssue(deps: RouteDeps, req: Request, iid: number): Promise<{ pc: ProjectContext; issue: Issue; actorId: number }> {
  const c = ctx(req);
  if (!c.user) throw new UnauthorizedError();
  const pc = await projectContext(deps.db, c, true);
  const issue = await findReadableIssue(deps.db, pc, iid);
  if (!canAdminIssue(pc)) throw new ForbiddenError();
  assertWritable(pc);
  return { pc, issue, actorId: c.user.id };
}

/** GitLab's issue time tracking: estimate, spent time, their resets, and the stats. `duration` may come from JSON, form or query. */
export function mountTimeTracking(router: Router, deps: RouteDeps): void {
  const base = '/projects/:id/issues/:issue_iid';
  // POST /projects/:id/issues/:issue_iid/time_estimate
  router.post(`${base}/time_estimate`, async (req, res) => {
    const { issue_iid, duration } = durationParams.parse(req);
    const { issue, actorId } = await adminIssue(deps, req, issue_iid);
    res.status(200).json(toTimeStats(await setEstimate(deps.db, issue, duration, actorId)));
  });
  // POST /projects/:id/issues/:issue_iid/reset_time_estimate
  router.post(`${base}/reset_time_estimate`, async (req, res) => {
    const { issue_iid } = iidParam.parse(req);
    const { issue, actorId } = await adminIssue(deps, req, issue_iid);
    res.status(200).json(toTimeStats(await setEstimate(deps.db, issue, 0, actorId)));
  });
  // POST /projects/:id/issues/:issue_iid/add_spent_time
  router.post(`${base}/add_spent_time`, async (req, res) => {
    const { issue_iid, duration, summary } = spentParams.parse(req);
    const { issue, actorId } = await adminIssue(deps, req, issue_iid);
    res.status(201).json(toTimeStats(await spendTime(deps.db, issue, duration, actorId, { summary })));
  });
  // POST /projects/:id/issues/:issue_iid/reset_spent_time
  router.post(`${base}/reset_spent_time`, async (req, res) => {
    const { issue_iid } = iidParam.parse(req);
    const { issue, actorId } = await adminIssue(deps, req, issue_iid);
    res.status(200).json(toTimeStats(await spendTime(deps.db, issue, 'reset', actorId)));
  });
  // GET /projects/:id/issues/:issue_iid/time_stats
  router.get(`${base}/time_stats`, async (req, res) => {
    const { issue_iid } = iidParam.parse(req);
    const pc = await projectContext(deps.db, ctx(req));
    res.json(toTimeStats(await findReadableIssue(deps.db, pc, issue_iid)));
  });
}
