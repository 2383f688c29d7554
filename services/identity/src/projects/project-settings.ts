import { Param, p } from '@anvil/http';

/**
 * Project settings that GitLab exposes and accepts on create/update but that nothing here acts
 * on yet. They live in `projects.settings` (jsonb); absent keys take these defaults.
 */

const ACCESS = ['disabled', 'private', 'enabled'] as const;
/** A feature's access level string. */
export type FeatureAccess = (typeof ACCESS)[number];

const accessLevels = {
  issues_access_level: 'enabled',
  repository_access_level: 'enabled',
  merge_requests_access_level: 'enabled',
  forking_access_level: 'enabled',
  wiki_access_level: 'enabled',
  builds_access_level: 'enabled',
  snippets_access_level: 'enabled',
  pages_access_level: 'private',
  analytics_access_level: 'enabled',
  container_registry_access_level: 'enabled',
  security_and_compliance_access_level: 'private',
  releases_access_level: 'enabled',
  environments_access_level: 'enabled',
  feature_flags_access_level: 'enabled',
  infrastructure_access_level: 'enabled',
  monitor_access_level: 'enabled',
  model_experiments_access_level: 'enabled',
  model_registry_access_level: 'enabled',
  requirements_access_level: 'enabled',
} as const satisfies Record<string, FeatureAccess>;

const booleans = {
  packages_enabled: true,
  emails_disabled: false,
  emails_enabled: true,
  shared_runners_enabled: true,
  lfs_enabled: true,
  request_access_enabled: true,
  resolve_outdated_diff_discussions: false,
  service_desk_enabled: false,
  public_jobs: true,
  only_allow_merge_if_pipeline_succeeds: false,
  allow_merge_on_skipped_pipeline: false,
  only_allow_merge_if_all_discussions_are_resolved: false,
  remove_source_branch_after_merge: true,
  printing_merge_request_link_enabled: true,
  restrict_user_defined_variables: false,
  ci_forward_deployment_enabled: true,
  autoclose_referenced_issues: true,
  keep_latest_artifact: true,
  auto_devops_enabled: false,
  enforce_auth_checks_on_uploads: true,
  warn_about_potentially_unwanted_characters: true,
  mr_default_target_self: false,
  ci_job_token_scope_enabled: false,
} as const;

const others = {
  merge_method: 'merge',
  squash_option: 'default_off',
  auto_devops_deploy_strategy: 'continuous',
  auto_cancel_pending_pipelines: 'enabled',
  build_git_strategy: 'fetch',
  build_timeout: 3600,
  ci_default_git_depth: 20,
  ci_config_path: null,
  build_coverage_regex: null,
  suggestion_commit_message: null,
  merge_commit_template: null,
  squash_commit_template: null,
  issue_branch_template: null,
} as { merge_method: string; squash_option: string; auto_devops_deploy_strategy: string; auto_cancel_pending_pipelines: string; build_git_strategy: string; build_timeout: number; ci_default_git_depth: number | null; ci_config_path: string | null; build_coverage_regex: string | null; suggestion_commit_message: string | null; merge_commit_template: string | null; squash_commit_template: string | null; issue_branch_template: string | null };

/** Every stored project setting with its default. */
export const PROJECT_SETTING_DEFAULTS = { ...accessLevels, ...booleans, ...others };
/** The stored settings of a project. */
export type ProjectSettings = { -readonly [K in keyof typeof accessLevels]: FeatureAccess } & { -readonly [K in keyof typeof booleans]: boolean } & typeof others;

/** Declared parameters for the settings (create and update accept the same set). */
export const projectSettingParams = {
  ...(Object.fromEntries(Object.keys(accessLevels).map((k) => [k, p.enum(ACCESS)])) as Record<keyof typeof accessLevels, Param<FeatureAccess>>),
  ...(Object.fromEntries(Object.keys(booleans).map((k) => [k, p.boolean()])) as Record<keyof typeof booleans, Param<boolean>>),
  merge_method: p.enum(['merge', 'rebase_merge', 'ff'] as const),
  squash_option: p.enum(['never', 'always', 'default_on', 'default_off'] as const),
  auto_devops_deploy_strategy: p.enum(['continuous', 'manual', 'timed_incremental'] as const),
  auto_cancel_pending_pipelines: p.enum(['enabled', 'disabled'] as const),
  build_git_strategy: p.enum(['fetch', 'clone'] as const),
  build_timeout: p.integer().where((n) => n >= 600 && n <= 2_592_000),
  ci_default_git_depth: p.integer().where((n) => n >= 0 && n <= 1000),
  ci_config_path: p.string(),
  build_coverage_regex: p.string(),
  suggestion_commit_message: p.string(),
  merge_commit_template: p.string(),
  squash_commit_template: p.string(),
  issue_branch_template: p.string(),
  // Legacy booleans, translated to the *_access_level settings.
  issues_enabled: p.boolean(),
  merge_requests_enabled: p.boolean(),
  wiki_enabled: p.boolean(),
  jobs_enabled: p.boolean(),
  snippets_enabled: p.boolean(),
  container_registry_enabled: p.boolean(),
};

const LEGACY: Record<string, keyof typeof accessLevels> = {
  issues_enabled: 'issues_access_level',
  merge_requests_enabled: 'merge_requests_access_level',
  wiki_enabled: 'wiki_access_level',
  jobs_enabled: 'builds_access_level',
  snippets_enabled: 'snippets_access_level',
  container_registry_enabled: 'container_registry_access_level',
};

/**
 * The settings present in parsed params, legacy booleans translated (`issues_enabled: false` →
 * `issues_access_level: 'disabled'`); an explicit access level wins over its legacy boolean.
 */
export function settingsFromParams(input: Record<string, unknown>): Partial<ProjectSettings> {
  const out: Record<string, unknown> = {};
  for (const [legacy, level] of Object.entries(LEGACY)) {
    if (typeof input[legacy] === 'boolean') out[level] = input[legacy] ? 'enabled' : 'disabled';
  }
  for (const key of Object.keys(PROJECT_SETTING_DEFAULTS)) {
    if (input[key] !== undefined) out[key] = input[key];
  }
  if (typeof input.emails_disabled === 'boolean' && input.emails_enabled === undefined) out.emails_enabled = !input.emails_disabled;
  if (typeof input.emails_enabled === 'boolean' && input.emails_disabled === undefined) out.emails_disabled = !input.emails_enabled;
  return out as Partial<ProjectSettings>;
}

/** Stored settings merged over the defaults. */
export function withSettingDefaults(stored: Partial<ProjectSettings> | null | undefined): ProjectSettings {
  return { ...PROJECT_SETTING_DEFAULTS, ...(stored ?? {}) } as ProjectSettings;
}
