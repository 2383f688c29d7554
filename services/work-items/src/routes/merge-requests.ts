import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import { ctx, NotFoundError, p, paginate, paginateArray, params, UnauthorizedError } from '@anvil/http';
import { projectContext, ProjectContext } from '../access/project-context';
import { readableProjects } from '../access/viewer';
import { toMergeRequest, toMergeRequestBasic } from '../entities/merge-request';
import { findReadableIssue } from '../issues/issue-access';
import { loadMergeRequestViews } from '../merge-requests/merge-request-loader';
import { createMergeRequest, MergeRequestAttributes, mergeMergeRequest, updateMergeRequest } from '../merge-requests/merge-request-service';
import {
  allLinkedMergeRequests, findMergeRequest, linkedMergeRequests, MergeRequest, mergeRequestFromRow, MergeRequestRow, mergeRequestsOf,
} from '../merge-requests/merge-request-store';
import type { RouteDeps } from './deps';
import { projectOrigin } from './present';

const shared = { description: p.string(), assignee_id: p.integer(), assignee_ids: p.array(p.integer()), labels: p.list(), milestone_id: p.integer(), remove_source_branch: p.boolean(), squash: p.boolean() };
const createParams = params({ ...shared, source_branch: p.string().required(), target_branch: p.string().required(), title: p.string().required(), target_project_id: p.integer() });
const updateParams = params({ ...shared, merge_request_iid: p.integer().required(), title: p.string(), target_branch: p.string(), state_event: p.enum(['close', 'reopen'] as const), discussion_locked: p.boolean() }, {
  atLeastOneOf: [['assignee_id', 'assignee_ids', 'description', 'labels', 'milestone_id', 'remove_source_branch', 'squash', 'target_branch', 'title', 'state_event', 'discussion_locked']],
});
const iidParam = params({ merge_request_iid: p.integer().required() });
const issueParam = params({ issue_iid: p.integer().required() });
const listParams = params({ state: p.enum(['opened', 'closed', 'locked', 'merged', 'all'] as const).default('all') });

function attributes(input: Partial<ReturnType<typeof updateParams.parse>> & { source_branch?: string }): MergeRequestAttributes {
  const assignees = input.assignee_ids ?? (input.assignee_id !== undefined ? (input.assignee_id ? [input.assignee_id] : []) : undefined);
  return {
    title: input.title, description: input.description, sourceBranch: input.source_branch, targetBranch: input.target_branch, assigneeIds: assignees ?? undefined,
    labels: input.labels ?? undefined, milestoneId: input.milestone_id, removeSourceBranch: input.remove_source_branch ?? undefined,
    squash: input.squash ?? undefined, discussionLocked: input.discussion_locked ?? undefined, stateEvent: input.state_event ?? undefined,
  };
}

async function present(db: Knex, pc: ProjectContext, rows: MergeRequest[], full: boolean): Promise<Record<string, unknown>[]> {
  const { views, projectPaths } = await loadMergeRequestViews(db, rows, { id: pc.id, path: pc.path, pathWithNamespace: pc.pathWithNamespace, namespaceId: pc.namespaceId });
  const o = { base: pc.base, origin: projectOrigin(pc), projectPaths, groupPaths: new Map<number, string>() };
  return views.map((v) => (full ? toMergeRequest(v, { ...o, canMerge: pc.level >= AccessLevel.DEVELOPER }) : toMergeRequestBasic(v, o)));
}

async function load(db: Knex, pc: ProjectContext, req: Request): Promise<MergeRequest> {
  const { merge_request_iid } = iidParam.parse(req);
  const mr = await findMergeRequest(db, pc.id, merge_request_iid);
  if (!mr) throw new NotFoundError('Merge Request');
  return mr;
}

function requireUser(req: Request): void {
  if (!ctx(req).user) throw new UnauthorizedError();
}

/** Thin merge requests (create, list, get, edit, merge) and the issue-side related/closing lists. */
export function mountMergeRequests(router: Router, { db }: RouteDeps): void {
  // POST /projects/:id/merge_requests
  router.post('/projects/:id/merge_requests', async (req, res) => {
    requireUser(req);
    const input = createParams.parse(req);
    const pc = await projectContext(db, ctx(req), true);
    const mr = await createMergeRequest(db, pc, { ...attributes(input), title: input.title, sourceBranch: input.source_branch, targetBranch: input.target_branch });
    res.status(201).json((await present(db, pc, [mr], true))[0]);
  });
  // GET /projects/:id/merge_requests
  router.get('/projects/:id/merge_requests', async (req, res) => {
    const { state } = listParams.parse(req);
    const pc = await projectContext(db, ctx(req));
    const page = await paginate<MergeRequestRow>(req, mergeRequestsOf(db, pc.id, state));
    res.set(page.headers).json(await present(db, pc, page.items.map(mergeRequestFromRow), false));
  });
  // GET /projects/:id/merge_requests/:merge_request_iid
  router.get('/projects/:id/merge_requests/:merge_request_iid', async (req, res) => {
    const pc = await projectContext(db, ctx(req));
    res.json((await present(db, pc, [await load(db, pc, req)], true))[0]);
  });
  // PUT /projects/:id/merge_requests/:merge_request_iid
  router.put('/projects/:id/merge_requests/:merge_request_iid', async (req, res) => {
    requireUser(req);
    const input = updateParams.parse(req);
    const pc = await projectContext(db, ctx(req), true);
    const mr = await updateMergeRequest(db, pc, await load(db, pc, req), attributes(input));
    res.json((await present(db, pc, [mr], true))[0]);
  });
  // PUT /projects/:id/merge_requests/:merge_request_iid/merge
  router.put('/projects/:id/merge_requests/:merge_request_iid/merge', async (req, res) => {
    requireUser(req);
    const pc = await projectContext(db, ctx(req), true);
    const mr = await mergeMergeRequest(db, pc, await load(db, pc, req));
    res.json((await present(db, pc, [mr], true))[0]);
  });
  // GET /projects/:id/issues/:issue_iid/related_merge_requests
  router.get('/projects/:id/issues/:issue_iid/related_merge_requests', async (req, res) => {
    const pc = await projectContext(db, ctx(req));
    const issue = await findReadableIssue(db, pc, issueParam.parse(req).issue_iid);
    const all = await allLinkedMergeRequests(db, issue.id, { onlyClosing: false, readable: readableProjects(db, pc.viewer, 'p'), ownProjectId: pc.id, onlyOwn: false });
    const { items, headers } = paginateArray(req, all);
    res.set(headers).json(await present(db, pc, items, true));
  });
  // GET /projects/:id/issues/:issue_iid/closed_by
  router.get('/projects/:id/issues/:issue_iid/closed_by', async (req, res) => {
    const pc = await projectContext(db, ctx(req));
    const issue = await findReadableIssue(db, pc, issueParam.parse(req).issue_iid);
    const page = await paginate<MergeRequestRow>(req, linkedMergeRequests(db, issue.id, { onlyClosing: true, readable: readableProjects(db, pc.viewer, 'p'), ownProjectId: pc.id, onlyOwn: true }));
    res.set(page.headers).json(await present(db, pc, page.items.map(mergeRequestFromRow), false));
  });
}
