import type { ProjectRow } from '../src/projects/project';
import { toProject } from '../src/projects/project';
import { toBasicProjectDetails, toProjectEntity, toProjectWithAccess } from '../src/entities/project';

/** The `Project` entity's fields, in order, for a Developer of a group project (no owner, no admin-only fields). */
const PROJECT_FIELDS = [
  'id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list', 'topics',
  'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'forks_count', 'avatar_url', 'star_count', 'last_activity_at', 'namespace',
  '_links', 'packages_enabled', 'empty_repo', 'archived', 'visibility', 'resolve_outdated_diff_discussions', 'repository_object_format',
  'issues_enabled', 'merge_requests_enabled', 'wiki_enabled', 'jobs_enabled', 'snippets_enabled', 'container_registry_enabled',
  'service_desk_enabled', 'service_desk_address', 'can_create_merge_request_in', 'issues_access_level', 'repository_access_level',
  'merge_requests_access_level', 'forking_access_level', 'wiki_access_level', 'builds_access_level', 'snippets_access_level', 'pages_access_level',
  'analytics_access_level', 'container_registry_access_level', 'security_and_compliance_access_level', 'releases_access_level',
  'environments_access_level', 'feature_flags_access_level', 'infrastructure_access_level', 'monitor_access_level', 'model_experiments_access_level',
  'model_registry_access_level', 'requirements_access_level', 'emails_disabled', 'emails_enabled', 'shared_runners_enabled', 'lfs_enabled',
  'creator_id', 'import_url', 'import_type', 'import_status', 'open_issues_count', 'description_html', 'updated_at', 'ci_default_git_depth',
  'ci_forward_deployment_enabled', 'ci_job_token_scope_enabled', 'public_jobs', 'build_timeout', 'auto_cancel_pending_pipelines', 'ci_config_path',
  'shared_with_groups', 'only_allow_merge_if_pipeline_succeeds', 'allow_merge_on_skipped_pipeline', 'restrict_user_defined_variables',
  'request_access_enabled', 'only_allow_merge_if_all_discussions_are_resolved', 'remove_source_branch_after_merge',
  'printing_merge_request_link_enabled', 'merge_method', 'squash_option', 'enforce_auth_checks_on_uploads', 'suggestion_commit_message',
  'merge_commit_template', 'squash_commit_template', 'issue_branch_template', 'warn_about_potentially_unwanted_characters',
  'autoclose_referenced_issues', 'mr_default_target_self', 'auto_devops_enabled', 'auto_devops_deploy_strategy', 'keep_latest_artifact',
  'build_coverage_regex',
];
const BASE = 'http://127.0.0.1:8080/';

function row(overrides: Partial<ProjectRow> = {}): ProjectRow {
  const t = new Date('2026-01-02T03:04:05.678Z');
  return {
    id: 7, name: 'Web', path: 'web', namespace_id: 5, description: null, visibility: 'private', archived: false, creator_id: 1, default_branch: null, topics: ['x'],
    star_count: 0, forks_count: 0, settings: { issues_access_level: 'disabled' }, created_at: t, updated_at: t, last_activity_at: t,
    ns_kind: 'group', ns_name: 'Sub', ns_path: 'sub', ns_full_path: 'top/sub', ns_full_name: 'Top / Sub', ns_parent_id: 3, ns_traversal_ids: [3, 5],
    ns_owner_id: null, ns_visibility: 'private', owner_username: null, owner_name: null, owner_state: null, project_access: 30, group_access: 0,
    ...overrides,
  };
}

const wire = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;

describe('project entities', () => {
  it('serialises Project with GitLab’s field set, in order', () => {
    expect(Object.keys(wire(toProjectEntity(toProject(row()), BASE)))).toEqual(PROJECT_FIELDS);
  });

  it('adds owner (personal projects) and the administrators’ fields where GitLab puts them', () => {
    const personal = toProject(row({ ns_kind: 'user', ns_owner_id: 9, owner_username: 'ann', owner_name: 'Ann', owner_state: 'active', ns_full_path: 'ann' }));
    const body = wire(toProjectEntity(personal, BASE, true));
    const keys = Object.keys(body);
    expect(keys.filter((k) => !PROJECT_FIELDS.includes(k))).toEqual(['owner', 'import_error', 'build_git_strategy']);
    expect(keys.indexOf('owner')).toBe(keys.indexOf('visibility') + 1);
    expect(keys.indexOf('import_error')).toBe(keys.indexOf('import_status') + 1);
    expect(keys.indexOf('build_git_strategy')).toBe(keys.indexOf('public_jobs') + 1);
    expect(body.owner).toEqual({ id: 9, username: 'ann', name: 'Ann', state: 'active', locked: false, avatar_url: null, web_url: 'http://127.0.0.1:8080/ann' });
    expect(body.import_error).toBeNull();
  });

  it('ends ProjectWithAccess with permissions', () => {
    const body = wire(toProjectWithAccess(toProject(row()), BASE));
    expect(Object.keys(body)).toEqual([...PROJECT_FIELDS, 'permissions']);
    expect(body.permissions).toEqual({ project_access: { access_level: 30, notification_level: 3 }, group_access: null });
  });

  it('starts Project with the BasicProjectDetails fields and values', () => {
    const p = toProject(row());
    const basic = wire(toBasicProjectDetails(p, BASE));
    const full = wire(toProjectEntity(p, BASE));
    expect(Object.keys(full).slice(0, Object.keys(basic).length)).toEqual(Object.keys(basic));
    for (const [k, v] of Object.entries(basic)) expect(full[k]).toEqual(v);
    expect(basic).toMatchObject({ ssh_url_to_repo: 'git@127.0.0.1:top/sub/web.git', web_url: 'http://127.0.0.1:8080/top/sub/web', default_branch: 'main' });
    expect(full).toMatchObject({ issues_enabled: false, issues_access_level: 'disabled', merge_requests_enabled: true });
  });
});
