import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Storage } from '@anvil/storage';
import type { Project } from '../projects/project';
import type { FeatureAccess, ProjectSettings } from '../projects/project-settings';
import { projectStore } from '../projects/project-store';

/** GitLab's `Gitlab::VisibilityLevel` numbers, as the export tree writes them. */
const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const;
/** `ProjectFeature` integers as GitLab's exporter writes them. */
const FEATURE_LEVEL: Record<FeatureAccess, number> = { disabled: 0, private: 10, enabled: 20 };

/** Settings written under their own name in `project.json` (GitLab's project columns and methods). */
const SAME_NAME = [
  'autoclose_referenced_issues', 'build_timeout', 'only_allow_merge_if_all_discussions_are_resolved', 'only_allow_merge_if_pipeline_succeeds',
  'printing_merge_request_link_enabled', 'remove_source_branch_after_merge', 'request_access_enabled', 'resolve_outdated_diff_discussions',
  'service_desk_enabled', 'shared_runners_enabled', 'suggestion_commit_message', 'allow_merge_on_skipped_pipeline', 'squash_option',
  'merge_commit_template', 'squash_commit_template', 'auto_cancel_pending_pipelines',
  // Project columns GitLab's allow-list leaves out; Anvil writes them so its own import keeps them.
  'ci_config_path', 'build_coverage_regex', 'issue_branch_template', 'keep_latest_artifact', 'restrict_user_defined_variables',
] as const satisfies readonly (keyof ProjectSettings)[];

/**
 * `tree/project.json`: the project's own attributes under GitLab's names (`import_export.yml`'s
 * included project attributes Anvil stores; no ids, name, path or timestamps), plus the stored
 * settings GitLab keeps on other rows or leaves out (`ci_config_path`, `default_branch`, ...).
 */
export function projectTree(project: Project, description: string | null): Record<string, unknown> {
  const s = project.settings;
  const tree: Record<string, unknown> = {
    description: description ?? project.description ?? '',
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    archived: project.archived,
    build_allow_git_fetch: s.build_git_strategy === 'fetch',
    merge_requests_ff_only_enabled: s.merge_method === 'ff',
    merge_requests_rebase_enabled: s.merge_method === 'rebase_merge',
    public_builds: s.public_jobs,
    default_branch: project.defaultBranch,
  };
  for (const k of SAME_NAME) tree[k] = s[k];
  return tree;
}

/** `tree/project/project_feature.ndjson`: the feature access levels as `ProjectFeature` integers (one object, no newline). */
export function projectFeature(project: Project): Record<string, unknown> {
  const out: Record<string, unknown> = { project_id: project.id };
  for (const [k, v] of Object.entries(project.settings)) if (k.endsWith('_access_level')) out[k] = FEATURE_LEVEL[v as FeatureAccess];
  out.created_at = project.createdAt.toISOString();
  out.updated_at = project.updatedAt.toISOString();
  return out;
}

/**
 * `tree/project/ci_cd_settings.ndjson`: the project's `ProjectCiCdSetting` row as far as Anvil stores
 * it. `default_git_depth` is GitLab's included attribute; `forward_deployment_enabled` and
 * `job_token_scope_enabled` are columns of the same row GitLab's allow-list leaves out, written so
 * Anvil's own import keeps them.
 */
export function ciCdSettings(project: Project): Record<string, unknown> {
  const s = project.settings;
  return { default_git_depth: s.ci_default_git_depth, forward_deployment_enabled: s.ci_forward_deployment_enabled, job_token_scope_enabled: s.ci_job_token_scope_enabled };
}

/** `tree/project/auto_devops.ndjson`: the project's `ProjectAutoDevops` row under GitLab's included attributes. */
export function autoDevops(project: Project): Record<string, unknown> {
  const s = project.settings;
  return {
    project_id: project.id, created_at: project.createdAt.toISOString(), updated_at: project.updatedAt.toISOString(),
    enabled: s.auto_devops_enabled, deploy_strategy: s.auto_devops_deploy_strategy,
  };
}

/** The has-one relations identity writes under `tree/project/`, each one JSON object without a newline, as GitLab's `NdjsonWriter` writes them. */
const HAS_ONE: [string, (project: Project) => Record<string, unknown>][] = [
  ['project_feature', projectFeature], ['ci_cd_settings', ciCdSettings], ['auto_devops', autoDevops],
];

interface MemberRow {
  access_level: number;
  user_id: number;
  created_at: Date;
  updated_at: Date;
  created_by_id: number | null;
  expires_at: string | Date | null;
  username: string;
  public_email: string | null;
}

const isoDate = (d: string | Date | null) => (d === null ? null : typeof d === 'string' ? d : d.toISOString().slice(0, 10));

/** One `project_members.ndjson` line: `ProjectMember` with `user: {id, public_email, username}`. */
export function memberLine(m: MemberRow): Record<string, unknown> {
  return {
    access_level: m.access_level, source_type: 'Project', user_id: m.user_id, notification_level: 3,
    created_at: m.created_at.toISOString(), updated_at: m.updated_at.toISOString(), created_by_id: m.created_by_id,
    invite_email: null, invite_accepted_at: null, requested_at: null, expires_at: isoDate(m.expires_at), ldap: false, override: false,
    user: { id: m.user_id, public_email: m.public_email, username: m.username },
  };
}

async function* ndjson(rows: AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>): AsyncGenerator<string> {
  for await (const r of rows) yield JSON.stringify(r) + '\n';
}

/** What identity's part of an export wrote. */
export interface PartResult {
  files: string[];
  counts: Record<string, number>;
}

/**
 * Writes identity's part of an export under `prefix`: `tree/project.json`, the has-one relations
 * `tree/project/{project_feature,ci_cd_settings,auto_devops}.ndjson` and
 * `tree/project/project_members.ndjson` (direct project members). Null when the project is gone.
 * Writing again overwrites the same keys.
 */
export async function writeIdentityPart(db: Knex, storage: Storage, prefix: string, projectId: number, description: string | null): Promise<PartResult | null> {
  const project = await projectStore.find(db, projectId, null);
  if (!project) return null;
  await storage.put(`${prefix}tree/project.json`, Readable.from([JSON.stringify(projectTree(project, description))]));
  const files = ['tree/project.json'];
  const counts: Record<string, number> = { project: 1 };
  for (const [name, build] of HAS_ONE) {
    await storage.put(`${prefix}tree/project/${name}.ndjson`, Readable.from([JSON.stringify(build(project))]));
    files.push(`tree/project/${name}.ndjson`);
    counts[name] = 1;
  }
  const members = (await db('members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.source_type': 'Project', 'm.source_id': projectId })
    .orderBy('m.id')
    .select('m.access_level', 'm.user_id', 'm.created_at', 'm.updated_at', 'm.created_by_id', 'm.expires_at', 'u.username', 'u.public_email')) as MemberRow[];
  await storage.put(`${prefix}tree/project/project_members.ndjson`, Readable.from(ndjson(members.map(memberLine))));
  files.push('tree/project/project_members.ndjson');
  counts.project_members = members.length;
  return { files, counts };
}
