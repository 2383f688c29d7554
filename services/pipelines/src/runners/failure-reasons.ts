/**
 * GitLab's job failure reasons (`Enums::Ci::CommitStatus.failure_reasons` keys), sent to runners
 * as `features.failure_reasons` and accepted from them on `PUT /jobs/:id` (anything else is
 * recorded as `unknown_failure`). See reference/runner.md §3.1, §4.
 */
export const FAILURE_REASONS = [
  'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure',
  'missing_dependency_failure', 'runner_unsupported', 'stale_schedule', 'job_execution_timeout', 'archived_failure',
  'unmet_prerequisites', 'scheduler_failure', 'data_integrity_failure', 'forward_deployment_failure', 'user_blocked',
  'project_deleted', 'ci_quota_exceeded', 'pipeline_loop_detected', 'no_matching_runner', 'trace_size_exceeded',
  'builds_disabled', 'environment_creation_failure', 'deployment_rejected', 'failed_outdated_deployment_job',
  'protected_environment_failure', 'insufficient_bridge_permissions', 'downstream_bridge_project_not_found',
  'invalid_bridge_trigger', 'upstream_bridge_project_not_found', 'insufficient_upstream_permissions',
  'bridge_pipeline_is_child_pipeline', 'downstream_pipeline_creation_failed', 'secrets_provider_not_found',
  'reached_max_descendant_pipelines_depth', 'ip_restriction_failure', 'reached_max_pipeline_hierarchy_size',
  'reached_downstream_pipeline_trigger_rate_limit',
] as const;

/** A reason GitLab knows, else `unknown_failure`. */
export function knownFailureReason(reason: string | undefined | null): string {
  return reason && (FAILURE_REASONS as readonly string[]).includes(reason) ? reason : 'unknown_failure';
}
