import type { Router } from 'express';
import { ctx, ForbiddenError, NotFoundError, p, params, RecordNotFoundError, UnauthorizedError } from '@anvil/http';
import { projectContext } from '../access/project-context';
import { findReadableIssue } from '../issues/issue-access';
import { createIssue, deleteIssue, updateIssue } from '../issues/issue-service';
import { findIssueById, findIssueByIid } from '../issues/issue-store';
import type { RouteDeps } from './deps';
import { createIssueParams, toAttributes, updateIssueParams } from './issue-params';
import { presentIssue, presentIssues } from './present';

const iidParam = params({ issue_iid: p.integer().required() });
const globalIdParam = params({ id: p.integer().required() });

function requireUser(req: Parameters<typeof ctx>[0]): void {
  if (!ctx(req).user) throw new UnauthorizedError();
}

/** Single-issue routes of a project: get, create, edit, delete. */
export function mountProjectIssues(router: Router, { db }: RouteDeps): void {
  // GET /projects/:id/issues/:issue_iid
  router.get('/projects/:id/issues/:issue_iid', async (req, res) => {
    const { issue_iid } = iidParam.parse(req);
    const pc = await projectContext(db, ctx(req));
    const issue = await findReadableIssue(db, pc, issue_iid);
    res.json(await presentIssue(db, pc, issue));
  });

  // GET /issues/:id (administrators only)
  router.get('/issues/:id', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    if (!c.user.admin) throw new ForbiddenError();
    const { id } = globalIdParam.parse(req);
    const issue = await findIssueById(db, id);
    if (!issue) throw new RecordNotFoundError();
    const [out] = await presentIssues(db, [issue], { base: c.base.replace(/\/$/, ''), origin: { kind: 'project', id: issue.projectId, namespaceId: -1 }, subscriber: c.user.id });
    res.json(out);
  });

  // POST /projects/:id/issues
  router.post('/projects/:id/issues', async (req, res) => {
    requireUser(req);
    const input = createIssueParams.parse(req);
    const pc = await projectContext(db, ctx(req), true);
    const issue = await createIssue(db, pc, toAttributes(input));
    res.status(201).json(await presentIssue(db, pc, issue));
  });

  // PUT /projects/:id/issues/:issue_iid
  router.put('/projects/:id/issues/:issue_iid', async (req, res) => {
    requireUser(req);
    const input = updateIssueParams.parse(req);
    const pc = await projectContext(db, ctx(req), true);
    const issue = await findIssueByIid(db, pc.id, input.issue_iid);
    if (!issue) throw new RecordNotFoundError();
    const updated = await updateIssue(db, pc, issue, toAttributes(input));
    res.json(await presentIssue(db, pc, updated));
  });

  // DELETE /projects/:id/issues/:issue_iid
  router.delete('/projects/:id/issues/:issue_iid', async (req, res) => {
    requireUser(req);
    const { issue_iid } = iidParam.parse(req);
    const pc = await projectContext(db, ctx(req));
    const issue = await findIssueByIid(db, pc.id, issue_iid);
    if (!issue) throw new NotFoundError('Issue');
    await deleteIssue(db, pc, issue);
    res.status(204).end();
  });
}
