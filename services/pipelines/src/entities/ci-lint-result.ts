import type { LintResult } from '../ci-config';

/** GitLab's API::Entities::Ci::Lint::Result: `jobs` only when `include_jobs` is set. */
export function toLintResult(result: LintResult, includeJobs: boolean): Record<string, unknown> {
  return {
    valid: result.valid,
    errors: result.errors,
    warnings: result.warnings,
    merged_yaml: result.merged_yaml,
    includes: result.includes,
    ...(includeJobs ? { jobs: result.jobs } : {}),
  };
}
