import type { Status } from '../jobs/status';

/** One row of `pipelines` (GitLab's Ci::Pipeline); its fields keep GitLab's names. */
export interface Pipeline {
  id: number;
  project_id: number;
  iid: number;
  name: string | null;
  ref: string;
  sha: string;
  before_sha: string;
  tag: boolean;
  source: string;
  status: Status;
  user_id: number | null;
  parent_pipeline_id: number | null;
  yaml_errors: string | null;
  coverage: string | null;
  duration: number | null;
  queued_duration: number | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  committed_at: Date | null;
}

/** A pipeline variable (`pipeline_variables`). */
export interface PipelineVariable {
  key: string;
  value: string;
  variable_type: 'env_var' | 'file';
}

/** Pipeline sources (Ci::Pipeline.sources), the values of the `source` filter. */
export const SOURCES = [
  'unknown', 'push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'webide', 'merge_request_event',
  'external_pull_request_event', 'parent_pipeline', 'ondemand_dast_scan', 'ondemand_dast_validation', 'security_orchestration_policy',
] as const;
