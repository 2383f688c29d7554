import type { Seeded } from './seed';

/** One endpoint under load: the paths (relative to /api/v4) wrk cycles through. */
export interface Scenario {
  name: string;
  title: string;
  paths: string[];
}

/** The pipeline list without and with each kind of filter and order, and single pipelines. */
export function scenarios(d: Seeded): Scenario[] {
  const p = d.projectId;
  const filters = [
    'status=success', 'ref=feature-3', `username=${d.usernames[2]}`, 'scope=finished&order_by=updated_at', 'source=schedule&sort=asc',
    'name=Nightly%203', 'yaml_errors=true', 'order_by=status', 'scope=branches',
  ];
  return [
    { name: 'list', title: 'GET /projects/:id/pipelines', paths: [`/projects/${p}/pipelines`, `/projects/${p}/pipelines?page=2`] },
    { name: 'list-filtered', title: 'GET /projects/:id/pipelines (filters)', paths: filters.map((f) => `/projects/${p}/pipelines?${f}`) },
    { name: 'single', title: 'GET /projects/:id/pipelines/:pipeline_id', paths: d.pipelineIds.map((id) => `/projects/${p}/pipelines/${id}`) },
  ];
}
