/**
 * The whole configuration's validation as GitLab's Entry::Root: reserved keys, `default:`, global
 * `variables`, `stages` (with `.pre`/`.post`), `workflow`, then every job and hidden job.
 * Pure. See ../shared/reference/ci-config.md §2–§3 and §8.
 */
import { checkRules, checkVariables, Errors, isNestedStrings } from './entries';
import { buildBridge, isBridge } from './bridge';
import { buildJob, checkSharedEntries, DEFAULT_KEYS, isJob } from './job';
import type { ConfigModel, JobConfig } from './model';
import { isPlainObject, setOwn } from './yaml-load';

/** Top-level keys that are not jobs (Entry::Root::ALLOWED_KEYS). */
export const ROOT_KEYS = ['default', 'include', 'before_script', 'image', 'services', 'after_script', 'variables', 'stages', 'cache', 'workflow', 'spec'];
/** Stages when `stages:` is absent. */
export const DEFAULT_STAGES = ['.pre', 'build', 'test', 'deploy', '.post'];
const TOP_LEVEL_DEFAULTS = ['before_script', 'image', 'services', 'after_script', 'cache'];
const WORKFLOW_RULE_KEYS = ['if', 'changes', 'exists', 'when', 'variables', 'auto_cancel'];

/** `.pre` first, `.post` last, the user's stages (flattened) between (Config::Stages.wrap_with_edge_stages). */
export function wrapStages(stages: unknown[]): string[] {
  const flat = (stages.flat(10) as string[]).filter((s) => s !== '.pre' && s !== '.post');
  return ['.pre', ...flat, '.post'];
}

function checkDefaults(errors: Errors, config: Record<string, unknown>): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  const def = config.default;
  if (def !== undefined && def !== null) {
    if (!isPlainObject(def)) errors.add('default', 'config should be a hash');
    else {
      errors.unknownKeys('default', def, DEFAULT_KEYS);
      for (const key of TOP_LEVEL_DEFAULTS) {
        if (key in def && key in config) errors.list.push(`${key} is defined in top-level and \`default:\` entry`);
      }
      checkSharedEntries(errors, 'default', def);
      for (const [key, value] of Object.entries(def)) setOwn(defaults, key, value);
    }
  }
  const topLevel: Record<string, unknown> = {};
  for (const key of TOP_LEVEL_DEFAULTS) if (key in config && !(key in defaults)) topLevel[key] = config[key];
  checkSharedEntries(errors, '', topLevel);
  return { ...defaults, ...topLevel };
}

function checkStages(errors: Errors, value: unknown): string[] {
  if (value === undefined || value === null) return DEFAULT_STAGES;
  if (!Array.isArray(value) || !isNestedStrings(value)) {
    errors.add('stages', 'config should be an array of strings or a nested array of strings up to 10 levels deep');
    return DEFAULT_STAGES;
  }
  return wrapStages(value);
}

function checkWorkflow(errors: Errors, value: unknown): { rules: Record<string, unknown>[] | null; name: string | null } {
  if (value === undefined || value === null) return { rules: null, name: null };
  if (!isPlainObject(value)) {
    errors.add('workflow', 'config should be a hash');
    return { rules: null, name: null };
  }
  errors.unknownKeys('workflow', value, ['rules', 'name', 'auto_cancel']);
  if ('name' in value && typeof value.name !== 'string') errors.add('workflow', 'name should be a string');
  else if (typeof value.name === 'string' && value.name.length > 255) errors.add('workflow', 'name is too long (maximum is 255 characters)');
  if ('rules' in value && value.rules !== null) checkRules(errors, 'workflow:rules', value.rules, ['always', 'never'], WORKFLOW_RULE_KEYS);
  return {
    rules: Array.isArray(value.rules) ? (value.rules.flat(10) as Record<string, unknown>[]) : null,
    name: typeof value.name === 'string' ? value.name : null,
  };
}

function checkJobs(errors: Errors, config: Record<string, unknown>, defaults: Record<string, unknown>): JobConfig[] {
  const jobs: JobConfig[] = [];
  let visible = 0;
  for (const [name, value] of Object.entries(config)) {
    if (ROOT_KEYS.includes(name)) continue;
    if (name.startsWith('.')) {
      if (value === null || value === undefined || (isPlainObject(value) && Object.keys(value).length === 0)) errors.add(`jobs:${name}`, "config can't be blank");
      continue;
    }
    if (isBridge(name, value)) {
      visible++;
      const bridge = buildBridge(errors, name, value);
      if (bridge) jobs.push(bridge);
      continue;
    }
    if (!isJob(name, value)) {
      errors.add('jobs', `${name.replace(/ /g, '_')} config should implement the script:, run:, or trigger: keyword`);
      continue;
    }
    visible++;
    const job = buildJob(errors, name, value, defaults);
    if (job) jobs.push(job);
  }
  if (visible === 0) errors.add('jobs', 'config should contain at least one visible job');
  return jobs;
}

/** Validates the resolved configuration; returns GitLab's errors (all of them) or the model. */
export function validateRoot(config: Record<string, unknown>): { errors: string[]; model: ConfigModel | null } {
  const errors = new Errors();
  const defaults = checkDefaults(errors, config);
  let variables: Record<string, string> = {};
  if ('variables' in config && config.variables !== null) {
    variables = checkVariables(errors, 'variables', config.variables, ['value', 'description', 'expand', 'options']) ?? {};
  }
  const stages = checkStages(errors, config.stages);
  const workflow = checkWorkflow(errors, config.workflow);
  const jobs = checkJobs(errors, config, defaults);
  if (errors.list.length) return { errors: errors.list, model: null };
  return { errors: [], model: { stages, variables, workflowRules: workflow.rules, workflowName: workflow.name, jobs, warnings: [] } };
}
