/** The project attributes an import restores: `project.json`, its has-one relation files, `override_params`. */
import type { Readable } from 'node:stream';
import type { Visibility } from '@anvil/auth';
import type { Param } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import { PROJECT_SETTING_DEFAULTS, projectSettingParams, type ProjectSettings } from '../projects/project-settings';

type Row = Record<string, any>;

/** GitLab's `Gitlab::VisibilityLevel` numbers. */
const VISIBILITY_BY_LEVEL: Record<number, Visibility> = { 0: 'private', 10: 'internal', 20: 'public' };
/** `ProjectFeature` integers (30, public, exists for pages only: stored as enabled). */
const FEATURE_BY_LEVEL: Record<number, string> = { 0: 'disabled', 10: 'private', 20: 'enabled', 30: 'enabled' };
/** Most bytes of `project.json` or `project_feature.ndjson` read. */
const MAX_ATTRIBUTES_BYTES = 1024 * 1024;

const STRINGS = ['ci_config_path', 'build_coverage_regex', 'merge_commit_template', 'squash_commit_template', 'suggestion_commit_message', 'issue_branch_template'] as const;
const BOOLEANS = [
  'request_access_enabled', 'shared_runners_enabled', 'only_allow_merge_if_pipeline_succeeds', 'only_allow_merge_if_all_discussions_are_resolved',
  'allow_merge_on_skipped_pipeline', 'resolve_outdated_diff_discussions', 'printing_merge_request_link_enabled', 'remove_source_branch_after_merge',
  'autoclose_referenced_issues', 'service_desk_enabled', 'keep_latest_artifact', 'public_jobs', 'restrict_user_defined_variables',
] as const;
const ACCESS_LEVEL_KEYS = Object.keys(PROJECT_SETTING_DEFAULTS).filter((k) => k.endsWith('_access_level'));

/** The project attributes an import restores (GitLab's `project.json` minus its excluded attributes, as far as Anvil stores them). */
export interface ImportedAttributes {
  description?: string | null;
  visibility?: Visibility;
  archived?: boolean;
  default_branch?: string;
  settings: Partial<ProjectSettings>;
}

/** A small JSON document of the unpacked tree, or null when it is absent; throws on a body too large or not an object. */
export async function readJsonObject(storage: Storage, key: string): Promise<Row | null> {
  const body = await storage.get(key);
  if (!body) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as Readable) {
    size += (chunk as Buffer).length;
    if (size > MAX_ATTRIBUTES_BYTES) {
      body.destroy();
      throw new RangeError(`${key.split('/').pop()} is larger than ${MAX_ATTRIBUTES_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return null;
  const value = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('not a JSON object');
  return value as Row;
}

export const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const stringOrNull = (v: unknown) => v === null || typeof v === 'string';

/** The has-one relations of the tree identity reads, each from its own file (or, in older trees, nested in `project.json`). */
export interface HasOneRelations {
  project_feature?: Row | null;
  ci_cd_settings?: Row | null;
  auto_devops?: Row | null;
}
/** The has-one relation files identity's import reads under `tree/project/`. */
export const HAS_ONE_RELATIONS = ['project_feature', 'ci_cd_settings', 'auto_devops'] as const;

const nested = (tree: Row, name: string): Row | null => (tree[name] && typeof tree[name] === 'object' && !Array.isArray(tree[name]) ? (tree[name] as Row) : null);

/**
 * The attributes of `tree/project.json` and its has-one relations that Anvil stores: description,
 * visibility level, archived, default branch, the project settings GitLab keeps on the project row,
 * the feature access levels (`project_feature`), `default_git_depth` with Anvil's other CI/CD settings
 * (`ci_cd_settings`) and Auto DevOps (`auto_devops`; `enabled: null`, the instance default, is left alone).
 */
export function attributesFromTree(tree: Row, relations: HasOneRelations = {}): ImportedAttributes {
  const out: ImportedAttributes = { settings: {} };
  const settings = out.settings as Record<string, unknown>;
  if (stringOrNull(tree.description)) out.description = tree.description;
  if (isInt(tree.visibility_level) && VISIBILITY_BY_LEVEL[tree.visibility_level]) out.visibility = VISIBILITY_BY_LEVEL[tree.visibility_level];
  if (typeof tree.archived === 'boolean') out.archived = tree.archived;
  if (typeof tree.default_branch === 'string' && tree.default_branch) out.default_branch = tree.default_branch;
  for (const k of STRINGS) if (stringOrNull(tree[k])) settings[k] = tree[k] === '' ? null : tree[k];
  for (const k of BOOLEANS) if (typeof tree[k] === 'boolean') settings[k] = tree[k];
  if (typeof tree.public_builds === 'boolean') settings.public_jobs = tree.public_builds;
  if (isInt(tree.build_timeout) && tree.build_timeout >= 600 && tree.build_timeout <= 2_592_000) settings.build_timeout = tree.build_timeout;
  if (typeof tree.build_allow_git_fetch === 'boolean') settings.build_git_strategy = tree.build_allow_git_fetch ? 'fetch' : 'clone';
  if (['never', 'always', 'default_on', 'default_off'].includes(tree.squash_option)) settings.squash_option = tree.squash_option;
  const cancel = tree.auto_cancel_pending_pipelines;
  if (cancel === 0 || cancel === 1 || cancel === 'disabled' || cancel === 'enabled') settings.auto_cancel_pending_pipelines = cancel === 1 || cancel === 'enabled' ? 'enabled' : 'disabled';
  if (typeof tree.merge_requests_ff_only_enabled === 'boolean' || typeof tree.merge_requests_rebase_enabled === 'boolean') {
    settings.merge_method = tree.merge_requests_ff_only_enabled ? 'ff' : tree.merge_requests_rebase_enabled ? 'rebase_merge' : 'merge';
  }
  const features = relations.project_feature ?? nested(tree, 'project_feature');
  for (const k of ACCESS_LEVEL_KEYS) {
    const v = features?.[k];
    if (isInt(v) && FEATURE_BY_LEVEL[v]) settings[k] = FEATURE_BY_LEVEL[v];
  }
  Object.assign(settings, ciCdAttributes(relations.ci_cd_settings ?? nested(tree, 'ci_cd_settings')), autoDevopsAttributes(relations.auto_devops ?? nested(tree, 'auto_devops')));
  return out;
}

/** `ProjectAutoDevops#deploy_strategy` (the enum's name, or its integer in a hand-made tree). */
const DEPLOY_STRATEGIES = ['continuous', 'manual', 'timed_incremental'];

/** The settings of a `ci_cd_settings` relation, under Anvil's names. */
function ciCdAttributes(ci: Row | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!ci) return out;
  const depth = ci.default_git_depth;
  if (depth === null || (isInt(depth) && depth >= 0 && depth <= 1000)) out.ci_default_git_depth = depth;
  if (typeof ci.forward_deployment_enabled === 'boolean') out.ci_forward_deployment_enabled = ci.forward_deployment_enabled;
  if (typeof ci.job_token_scope_enabled === 'boolean') out.ci_job_token_scope_enabled = ci.job_token_scope_enabled;
  return out;
}

/** The settings of an `auto_devops` relation, under Anvil's names. */
function autoDevopsAttributes(auto: Row | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!auto) return out;
  if (typeof auto.enabled === 'boolean') out.auto_devops_enabled = auto.enabled;
  const strategy = isInt(auto.deploy_strategy) ? DEPLOY_STRATEGIES[auto.deploy_strategy] : auto.deploy_strategy;
  if (DEPLOY_STRATEGIES.includes(strategy)) out.auto_devops_deploy_strategy = strategy;
  return out;
}

/**
 * One `override_params` setting as the projects API takes it (a multipart form's `"false"` or `"5"`
 * coerced, ranges and enums checked; null only for a text setting), or undefined when it is not valid.
 */
function overrideSetting(k: string, v: unknown): unknown {
  const param = (projectSettingParams as Record<string, Param<unknown, boolean>>)[k];
  if (v === null) return (PROJECT_SETTING_DEFAULTS as Record<string, unknown>)[k] === null ? null : undefined;
  const value = param.coerce(v, k, []);
  return typeof value === 'symbol' || (param.check && !param.check(value)) ? undefined : value;
}

/**
 * `override_params` over the archive's attributes, as GitLab merges them: description,
 * `visibility` (or `visibility_level`), and any stored setting given with a value the projects API accepts.
 */
export function withOverrides(attrs: ImportedAttributes, override: Record<string, unknown> | undefined): ImportedAttributes {
  if (!override) return attrs;
  const out: ImportedAttributes = { ...attrs, settings: { ...attrs.settings } };
  if (stringOrNull(override.description)) out.description = override.description as string | null;
  const level = typeof override.visibility_level === 'string' ? Number(override.visibility_level) : override.visibility_level;
  if (typeof override.visibility === 'string' && ['private', 'internal', 'public'].includes(override.visibility)) out.visibility = override.visibility as Visibility;
  else if (isInt(level) && VISIBILITY_BY_LEVEL[level]) out.visibility = VISIBILITY_BY_LEVEL[level];
  const settings = out.settings as Record<string, unknown>;
  for (const k of Object.keys(PROJECT_SETTING_DEFAULTS)) {
    const v = override[k] === undefined ? undefined : overrideSetting(k, override[k]);
    if (v !== undefined) settings[k] = v;
  }
  return out;
}
