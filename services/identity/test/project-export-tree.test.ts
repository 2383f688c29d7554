import type { Project } from '../src/projects/project';
import { PROJECT_SETTING_DEFAULTS, withSettingDefaults } from '../src/projects/project-settings';
import { autoDevops, ciCdSettings, projectFeature, projectTree } from '../src/transfer/project-export';
import { attributesFromTree, withOverrides } from '../src/transfer/project-import-attributes';

/** GitLab's `import_export.yml`: the project columns and methods `project.json` may carry. */
const GITLAB_PROJECT_ATTRIBUTES = [
  'approvals_before_merge', 'archived', 'auto_cancel_pending_pipelines', 'autoclose_referenced_issues', 'build_allow_git_fetch', 'build_timeout',
  'delete_error', 'description', 'disable_overriding_approvers_per_merge_request', 'external_authorization_classification_label',
  'has_external_issue_tracker', 'has_external_wiki', 'issues_template', 'jobs_cache_index', 'last_repository_check_failed',
  'merge_requests_author_approval', 'merge_requests_disable_committers_approval', 'merge_requests_ff_only_enabled', 'merge_requests_rebase_enabled',
  'merge_requests_template', 'only_allow_merge_if_all_discussions_are_resolved', 'only_allow_merge_if_pipeline_succeeds', 'pages_https_only',
  'pending_delete', 'printing_merge_request_link_enabled', 'public_builds', 'remove_source_branch_after_merge', 'request_access_enabled',
  'require_password_to_approve', 'reset_approvals_on_push', 'resolve_outdated_diff_discussions', 'service_desk_enabled', 'shared_runners_enabled',
  'suggestion_commit_message', 'visibility_level', 'allow_merge_on_skipped_pipeline', 'squash_option', 'merge_commit_template', 'squash_commit_template',
];
/** Project columns GitLab's allow-list leaves out that Anvil writes so that its own import keeps them. */
const ANVIL_EXTRAS = ['ci_config_path', 'build_coverage_regex', 'issue_branch_template', 'keep_latest_artifact', 'restrict_user_defined_variables', 'default_branch'];
/** GitLab's `project_feature` included attributes. */
const GITLAB_FEATURE_ATTRIBUTES = [
  'project_id', 'merge_requests_access_level', 'issues_access_level', 'wiki_access_level', 'snippets_access_level', 'builds_access_level', 'created_at',
  'updated_at', 'repository_access_level', 'pages_access_level', 'forking_access_level', 'metrics_dashboard_access_level', 'operations_access_level',
  'monitor_access_level', 'analytics_access_level', 'security_and_compliance_access_level', 'container_registry_access_level',
  'package_registry_access_level', 'environments_access_level', 'feature_flags_access_level', 'releases_access_level', 'infrastructure_access_level',
  'model_experiments_access_level', 'model_registry_access_level', 'requirements_access_level',
];
/** GitLab's `ci_cd_settings` included attributes, and the columns of that row Anvil adds so its own import keeps them. */
const GITLAB_CI_CD_ATTRIBUTES = ['group_runners_enabled', 'runner_token_expiration_interval', 'default_git_depth'];
const ANVIL_CI_CD_EXTRAS = ['forward_deployment_enabled', 'job_token_scope_enabled'];
/** GitLab's `auto_devops` included attributes. */
const GITLAB_AUTO_DEVOPS_ATTRIBUTES = ['created_at', 'deploy_strategy', 'enabled', 'project_id', 'updated_at'];

const settings = withSettingDefaults({
  issues_access_level: 'disabled', wiki_access_level: 'private', ci_config_path: 'ci/main.yml', build_timeout: 7200, merge_method: 'rebase_merge',
  public_jobs: false, build_git_strategy: 'clone', auto_cancel_pending_pipelines: 'disabled', squash_option: 'always', keep_latest_artifact: false,
  ci_default_git_depth: 5, ci_forward_deployment_enabled: false, auto_devops_enabled: true, auto_devops_deploy_strategy: 'timed_incremental',
});
const project = {
  id: 42, description: 'stored text', visibility: 'internal', archived: true, defaultBranch: 'develop', topics: ['a'], settings,
  createdAt: new Date('2024-01-02T03:04:05Z'), updatedAt: new Date('2024-02-03T04:05:06Z'),
} as unknown as Project;

describe('identity export: project.json and its has-one relations', () => {
  it('writes only GitLab attribute names (and the listed Anvil extras), with GitLab values', () => {
    const tree = projectTree(project, null);
    expect(Object.keys(tree).filter((k) => !GITLAB_PROJECT_ATTRIBUTES.includes(k) && !ANVIL_EXTRAS.includes(k))).toEqual([]);
    expect(tree).toMatchObject({
      description: 'stored text', visibility_level: 10, archived: true, default_branch: 'develop', ci_config_path: 'ci/main.yml', build_timeout: 7200,
      merge_requests_rebase_enabled: true, merge_requests_ff_only_enabled: false, public_builds: false, build_allow_git_fetch: false,
      auto_cancel_pending_pipelines: 'disabled', squash_option: 'always', keep_latest_artifact: false, request_access_enabled: true,
    });
    expect(tree).not.toHaveProperty('topics');
    expect(tree).not.toHaveProperty('created_at');
    expect(projectTree(project, 'from the request').description).toBe('from the request');
  });

  it('writes project_feature with GitLab names and ProjectFeature integers', () => {
    const feature = projectFeature(project);
    expect(Object.keys(feature).filter((k) => !GITLAB_FEATURE_ATTRIBUTES.includes(k))).toEqual([]);
    expect(feature).toMatchObject({
      project_id: 42, issues_access_level: 0, wiki_access_level: 10, builds_access_level: 20, pages_access_level: 10, repository_access_level: 20,
      created_at: '2024-01-02T03:04:05.000Z', updated_at: '2024-02-03T04:05:06.000Z',
    });
  });

  it('writes ci_cd_settings and auto_devops with GitLab names (and the listed Anvil extras)', () => {
    const ci = ciCdSettings(project);
    expect(Object.keys(ci).filter((k) => !GITLAB_CI_CD_ATTRIBUTES.includes(k) && !ANVIL_CI_CD_EXTRAS.includes(k))).toEqual([]);
    expect(ci).toEqual({ default_git_depth: 5, forward_deployment_enabled: false, job_token_scope_enabled: false });
    const auto = autoDevops(project);
    expect(Object.keys(auto).sort()).toEqual(GITLAB_AUTO_DEVOPS_ATTRIBUTES);
    expect(auto).toEqual({ project_id: 42, enabled: true, deploy_strategy: 'timed_incremental', created_at: '2024-01-02T03:04:05.000Z', updated_at: '2024-02-03T04:05:06.000Z' });
  });

  it('reads GitLab\'s own has-one lines: auto_devops enabled null left to the default, a nested relation in an older project.json', () => {
    // complex/tree/project/{auto_devops,ci_cd_settings}.ndjson in GitLab's fixtures
    const gitlab = attributesFromTree({}, {
      auto_devops: { id: 1, created_at: '2017-10-19T15:36:23.466Z', updated_at: '2017-10-19T15:36:23.466Z', enabled: null, deploy_strategy: 'continuous' },
      ci_cd_settings: { group_runners_enabled: false },
    });
    expect(gitlab.settings).toEqual({ auto_devops_deploy_strategy: 'continuous' });
    const legacy = attributesFromTree({ auto_devops: { enabled: true, deploy_strategy: 1 }, ci_cd_settings: { default_git_depth: null } });
    expect(legacy.settings).toEqual({ auto_devops_enabled: true, auto_devops_deploy_strategy: 'manual', ci_default_git_depth: null });
    const bad = attributesFromTree({}, { auto_devops: { enabled: 'yes', deploy_strategy: 'sometimes' }, ci_cd_settings: { default_git_depth: 5000, forward_deployment_enabled: 1 } });
    expect(bad.settings).toEqual({});
  });

  it('override_params win, taken as the projects API takes them (multipart strings coerced, invalid values ignored)', () => {
    const attrs = attributesFromTree({}, { auto_devops: { enabled: true, deploy_strategy: 'manual' }, ci_cd_settings: { default_git_depth: 5 } });
    expect(withOverrides(attrs, { auto_devops_enabled: 'false', ci_default_git_depth: '7', auto_devops_deploy_strategy: 'continuous' }).settings)
      .toEqual({ auto_devops_enabled: false, ci_default_git_depth: 7, auto_devops_deploy_strategy: 'continuous' });
    expect(withOverrides(attrs, { auto_devops_enabled: 'maybe', ci_default_git_depth: 5000, auto_devops_deploy_strategy: 'sometimes', ci_config_path: null }).settings)
      .toEqual({ auto_devops_enabled: true, ci_default_git_depth: 5, auto_devops_deploy_strategy: 'manual', ci_config_path: null });
  });

  it('reads back, through the import, as the settings it was written from (every setting off its default)', () => {
    const flipped: Record<string, unknown> = { merge_method: 'ff', squash_option: 'never', auto_devops_deploy_strategy: 'manual', auto_cancel_pending_pipelines: 'disabled', build_git_strategy: 'clone' };
    for (const [k, def] of Object.entries(PROJECT_SETTING_DEFAULTS)) {
      if (k in flipped) continue;
      if (k.endsWith('_access_level')) flipped[k] = def === 'private' ? 'disabled' : 'private';
      else if (typeof def === 'boolean') flipped[k] = !def;
      else if (typeof def === 'number') flipped[k] = def + 60;
      else flipped[k] = `${k}-value`;
    }
    const source = { ...project, settings: flipped } as unknown as Project;
    const attrs = attributesFromTree(projectTree(source, null), { project_feature: projectFeature(source), ci_cd_settings: ciCdSettings(source), auto_devops: autoDevops(source) });
    expect(attrs).toMatchObject({ description: 'stored text', visibility: 'internal', archived: true, default_branch: 'develop' });
    const restored = withSettingDefaults(attrs.settings) as unknown as Record<string, unknown>;
    const lost = Object.keys(flipped).filter((k) => restored[k] !== flipped[k]).sort();
    // Settings GitLab's export leaves out (excluded project attributes, and `mr_default_target_self`, which no export file carries).
    expect(lost).toEqual([
      'emails_disabled', 'emails_enabled', 'enforce_auth_checks_on_uploads', 'lfs_enabled', 'mr_default_target_self', 'packages_enabled',
      'warn_about_potentially_unwanted_characters',
    ]);
  });
});
