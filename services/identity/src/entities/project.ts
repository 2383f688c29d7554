import { iso } from '../sql';
import type { Project } from '../projects/project';
import { toNamespaceBasic } from './namespace';
import { toSharedGroupWithProject } from './project-group-link';
import { toUserBasic } from './user';

/*
 * Every entity here is ONE object literal with a fixed set of keys; a field GitLab omits for some
 * callers is `undefined`, which JSON leaves out. Spreading partial objects into a ~100-key result
 * made V8 add each key through its slow path and regrow the backing store (~300 µs and a lot of
 * garbage per project; see README, "Read path").
 */

const trimBase = (base: string) => base.replace(/\/$/, '');
const hosts = new Map<string, string>();
/** The host of a (trimmed) base URL, parsed once per base. */
function hostOf(b: string): string {
  let h = hosts.get(b);
  if (h === undefined) {
    h = new URL(b).hostname;
    if (hosts.size < 64) hosts.set(b, h);
  }
  return h;
}

const on = (level: string) => level !== 'disabled';
const access = (level: number) => (level > 0 ? { access_level: level, notification_level: 3 } : null);

/** `BasicProjectDetails` (`simple=true`, anonymous lists). */
export function toBasicProjectDetails(p: Project, base: string) {
  const b = trimBase(base);
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: p.nameWithNamespace,
    path: p.path,
    path_with_namespace: p.pathWithNamespace,
    created_at: iso(p.createdAt),
    default_branch: p.defaultBranch ?? 'main',
    tag_list: p.topics,
    topics: p.topics,
    ssh_url_to_repo: `git@${hostOf(b)}:${p.pathWithNamespace}.git`,
    http_url_to_repo: `${b}/${p.pathWithNamespace}.git`,
    web_url: `${b}/${p.pathWithNamespace}`,
    readme_url: null,
    forks_count: p.forksCount,
    avatar_url: null,
    star_count: p.starCount,
    last_activity_at: iso(p.lastActivityAt),
    namespace: toNamespaceBasic(p.namespace, base),
  };
}

function links(p: Project, b: string) {
  const api = `${b}/api/v4/projects/${p.id}`;
  return { self: api, issues: `${api}/issues`, merge_requests: `${api}/merge_requests`, repo_branches: `${api}/repository/branches`, labels: `${api}/labels`, events: `${api}/events`, members: `${api}/members`, cluster_agents: `${api}/cluster_agents` };
}

type Permissions = { project_access: ReturnType<typeof access>; group_access: ReturnType<typeof access> };

/** The `Project` entity (`BasicProjectDetails` and the rest), and `permissions` when given (`ProjectWithAccess`). */
function projectJson(p: Project, base: string, canAdmin: boolean, permissions: Permissions | undefined) {
  const s = p.settings;
  const b = trimBase(base);
  return Object.assign(toBasicProjectDetails(p, base), {
    _links: links(p, b),
    packages_enabled: s.packages_enabled,
    empty_repo: true,
    archived: p.archived,
    visibility: p.visibility,
    owner: p.owner ? toUserBasic(p.owner, base) : undefined,
    resolve_outdated_diff_discussions: s.resolve_outdated_diff_discussions,
    repository_object_format: 'sha1',
    issues_enabled: on(s.issues_access_level),
    merge_requests_enabled: on(s.merge_requests_access_level),
    wiki_enabled: on(s.wiki_access_level),
    jobs_enabled: on(s.builds_access_level),
    snippets_enabled: on(s.snippets_access_level),
    container_registry_enabled: on(s.container_registry_access_level),
    service_desk_enabled: s.service_desk_enabled,
    service_desk_address: null,
    can_create_merge_request_in: true,
    issues_access_level: s.issues_access_level,
    repository_access_level: s.repository_access_level,
    merge_requests_access_level: s.merge_requests_access_level,
    forking_access_level: s.forking_access_level,
    wiki_access_level: s.wiki_access_level,
    builds_access_level: s.builds_access_level,
    snippets_access_level: s.snippets_access_level,
    pages_access_level: s.pages_access_level,
    analytics_access_level: s.analytics_access_level,
    container_registry_access_level: s.container_registry_access_level,
    security_and_compliance_access_level: s.security_and_compliance_access_level,
    releases_access_level: s.releases_access_level,
    environments_access_level: s.environments_access_level,
    feature_flags_access_level: s.feature_flags_access_level,
    infrastructure_access_level: s.infrastructure_access_level,
    monitor_access_level: s.monitor_access_level,
    model_experiments_access_level: s.model_experiments_access_level,
    model_registry_access_level: s.model_registry_access_level,
    requirements_access_level: s.requirements_access_level,
    emails_disabled: s.emails_disabled,
    emails_enabled: s.emails_enabled,
    shared_runners_enabled: s.shared_runners_enabled,
    lfs_enabled: s.lfs_enabled,
    creator_id: p.creatorId,
    import_url: null,
    import_type: null,
    import_status: 'none',
    import_error: canAdmin ? null : undefined,
    open_issues_count: 0,
    description_html: '',
    updated_at: iso(p.updatedAt),
    ci_default_git_depth: s.ci_default_git_depth,
    ci_forward_deployment_enabled: s.ci_forward_deployment_enabled,
    ci_job_token_scope_enabled: s.ci_job_token_scope_enabled,
    public_jobs: s.public_jobs,
    build_git_strategy: canAdmin ? s.build_git_strategy : undefined,
    build_timeout: s.build_timeout,
    auto_cancel_pending_pipelines: s.auto_cancel_pending_pipelines,
    ci_config_path: s.ci_config_path,
    shared_with_groups: p.sharedWithGroups.map(toSharedGroupWithProject),
    only_allow_merge_if_pipeline_succeeds: s.only_allow_merge_if_pipeline_succeeds,
    allow_merge_on_skipped_pipeline: s.allow_merge_on_skipped_pipeline,
    restrict_user_defined_variables: s.restrict_user_defined_variables,
    request_access_enabled: s.request_access_enabled,
    only_allow_merge_if_all_discussions_are_resolved: s.only_allow_merge_if_all_discussions_are_resolved,
    remove_source_branch_after_merge: s.remove_source_branch_after_merge,
    printing_merge_request_link_enabled: s.printing_merge_request_link_enabled,
    merge_method: s.merge_method,
    squash_option: s.squash_option,
    enforce_auth_checks_on_uploads: s.enforce_auth_checks_on_uploads,
    suggestion_commit_message: s.suggestion_commit_message,
    merge_commit_template: s.merge_commit_template,
    squash_commit_template: s.squash_commit_template,
    issue_branch_template: s.issue_branch_template,
    warn_about_potentially_unwanted_characters: s.warn_about_potentially_unwanted_characters,
    autoclose_referenced_issues: s.autoclose_referenced_issues,
    mr_default_target_self: s.mr_default_target_self,
    auto_devops_enabled: s.auto_devops_enabled,
    auto_devops_deploy_strategy: s.auto_devops_deploy_strategy,
    keep_latest_artifact: s.keep_latest_artifact,
    build_coverage_regex: s.build_coverage_regex,
    permissions,
  });
}

/**
 * `Project`: the full project entity. `canAdmin` (Maintainer or admin) adds the fields GitLab
 * shows only to project administrators. Nothing here reads a repository, so `empty_repo` is true
 * and `open_issues_count` is 0 (issues live in work-items).
 */
export function toProjectEntity(p: Project, base: string, canAdmin = false) {
  return projectJson(p, base, canAdmin, undefined);
}

/** `ProjectWithAccess`: `Project` plus the caller's direct and group `permissions`. */
export function toProjectWithAccess(p: Project, base: string, canAdmin = false) {
  return projectJson(p, base, canAdmin, { project_access: access(p.access.project), group_access: p.namespace.kind === 'group' ? access(p.access.group) : null });
}
