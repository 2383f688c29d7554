/**
 * GitLab's Ci::PipelinesFinder for `GET /projects/:id/pipelines`: one `by<Filter>` step per
 * parameter, in GitLab's order, each a no-op when its parameter is absent. Child pipelines are
 * left out unless `source=parent_pipeline` asks for them. See ../shared/reference/pipelines.md §3.
 */
import type { Knex } from 'knex';
import { COMPLETED, type Status } from '../jobs/status';

/** The list's parameters, validated by the route. */
export interface PipelinesParams {
  scope?: 'running' | 'pending' | 'finished' | 'branches' | 'tags';
  status?: Status;
  ref?: string;
  sha?: string;
  name?: string;
  username?: string;
  yaml_errors?: boolean;
  source?: string;
  updated_after?: Date;
  updated_before?: Date;
  created_after?: Date;
  created_before?: Date;
  order_by: 'id' | 'status' | 'ref' | 'updated_at' | 'user_id';
  sort: 'asc' | 'desc';
}

/** The columns a list item needs. */
export const LIST_COLUMNS = ['id', 'iid', 'project_id', 'sha', 'ref', 'status', 'source', 'created_at', 'updated_at', 'name'] as const;

type Q = Knex.QueryBuilder;

/**
 * Builds the ordered query of a project's pipelines for `params`. `branchRefs` are the refs that
 * are branches (for `scope=branches`); tags are pipelines flagged `tag`.
 */
export function pipelinesQuery(db: Knex, projectId: number, params: PipelinesParams, branchRefs: string[] = []): Q {
  const q = db('pipelines').select(...LIST_COLUMNS).where('project_id', projectId);
  byChildren(q, params);
  byScope(db, q, projectId, params, branchRefs);
  byStatus(q, params);
  byRef(q, params);
  bySha(q, params);
  byUsername(db, q, params);
  byYamlErrors(q, params);
  byUpdatedAt(q, params);
  byCreatedAt(q, params);
  bySource(q, params);
  byName(q, params);
  return sorted(q, params);
}

function byChildren(q: Q, p: PipelinesParams): void {
  if (p.source !== 'parent_pipeline') q.whereNot('source', 'parent_pipeline');
}

function byScope(db: Knex, q: Q, projectId: number, p: PipelinesParams, branchRefs: string[]): void {
  if (p.scope === 'running' || p.scope === 'pending') q.where('status', p.scope);
  else if (p.scope === 'finished') q.whereIn('status', COMPLETED as Status[]);
  else if (p.scope === 'branches' || p.scope === 'tags') {
    const newest = db('pipelines').max('id').where({ project_id: projectId, tag: p.scope === 'tags' }).groupBy('ref');
    if (p.scope === 'branches') newest.whereIn('ref', branchRefs);
    if (p.source !== 'parent_pipeline') newest.whereNot('source', 'parent_pipeline');
    q.whereIn('id', newest);
  }
}

function byStatus(q: Q, p: PipelinesParams): void {
  if (p.status) q.where('status', p.status);
}

function byRef(q: Q, p: PipelinesParams): void {
  if (p.ref !== undefined) q.where('ref', p.ref);
}

function bySha(q: Q, p: PipelinesParams): void {
  if (p.sha !== undefined) q.where('sha', p.sha);
}

function byUsername(db: Knex, q: Q, p: PipelinesParams): void {
  if (p.username === undefined) return;
  q.whereIn('user_id', db('ci_users').select('id').whereRaw('lower(username) = lower(?)', [p.username]));
}

function byYamlErrors(q: Q, p: PipelinesParams): void {
  if (p.yaml_errors === true) q.whereNotNull('yaml_errors');
  else if (p.yaml_errors === false) q.whereNull('yaml_errors');
}

function byUpdatedAt(q: Q, p: PipelinesParams): void {
  if (p.updated_after) q.where('updated_at', '>', p.updated_after);
  if (p.updated_before) q.where('updated_at', '<', p.updated_before);
}

function byCreatedAt(q: Q, p: PipelinesParams): void {
  if (p.created_after) q.where('created_at', '>', p.created_after);
  if (p.created_before) q.where('created_at', '<', p.created_before);
}

function bySource(q: Q, p: PipelinesParams): void {
  if (p.source) q.where('source', p.source);
}

function byName(q: Q, p: PipelinesParams): void {
  if (p.name !== undefined) q.where('name', p.name);
}

function sorted(q: Q, p: PipelinesParams): Q {
  if (p.order_by === 'id') return q.orderBy('id', p.sort);
  return q.orderBy([{ column: p.order_by, order: p.sort }, { column: 'id', order: p.sort }]);
}
