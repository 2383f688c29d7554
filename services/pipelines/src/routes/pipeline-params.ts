import { p, params } from '@anvil/http';
import { STATUSES } from '../jobs/status';
import { SOURCES } from '../pipelines/pipeline-row';

/** `GET /projects/:id/pipelines` (lib/api/ci/pipelines.rb). */
export const listPipelinesParams = params({
  scope: p.enum(['running', 'pending', 'finished', 'branches', 'tags'] as const),
  status: p.enum(STATUSES),
  ref: p.string(),
  sha: p.string(),
  yaml_errors: p.boolean(),
  username: p.string(),
  updated_before: p.datetime(),
  updated_after: p.datetime(),
  created_before: p.datetime(),
  created_after: p.datetime(),
  order_by: p.enum(['id', 'status', 'ref', 'updated_at', 'user_id'] as const).default('id'),
  sort: p.enum(['asc', 'desc'] as const).default('desc'),
  source: p.enum(SOURCES),
  name: p.string(),
});

/** `POST /projects/:id/pipeline`: `ref` and `variables[]` of `{key, value, variable_type}`. */
export const createPipelineParams = params({
  ref: p.string().required(),
  variables: p.array(
    p.hash({
      key: p.string().required(),
      value: p.string().default(''),
      variable_type: p.enum(['env_var', 'file'] as const).default('env_var'),
    }),
  ),
});

/** Routes naming one pipeline. */
export const pipelineIdParams = params({ pipeline_id: p.integer().required() });

/** `GET /projects/:id/pipelines/latest`. */
export const latestParams = params({ ref: p.string() });

/** `PUT /projects/:id/pipelines/:pipeline_id/metadata`. */
export const metadataParams = params({ pipeline_id: p.integer().required(), name: p.string().required() });

/** `scope[]` of the job lists: statuses given as a string, an array or a hash. */
export const jobScope = p.array(p.enum(STATUSES));

/** `GET /projects/:id/pipelines/:pipeline_id/jobs|bridges`. */
export const pipelineJobsParams = params({
  pipeline_id: p.integer().required(),
  include_retried: p.boolean().default(false),
  scope: jobScope,
});
