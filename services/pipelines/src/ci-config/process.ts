/**
 * Static processing of a `.gitlab-ci.yml`, in GitLab's order (Gitlab::Ci::Config#build_config then
 * Gitlab::Ci::YamlProcessor): load, `include`, `extends`, `!reference`, entry validation, then the
 * logical checks across jobs (stages, needs, dependencies). No ref-specific evaluation here.
 * See ../shared/reference/ci-config.md §1–§8.
 */
import { stringify } from 'yaml';
import { ConfigError, resolveExtends } from './extends';
import { IncludeContext, IncludedFile, processIncludes } from './include';
import { MAX_NEEDS } from './job';
import type { ConfigModel, JobConfig } from './model';
import { resolveReferences } from './reference';
import { validateRoot, wrapStages } from './root';
import { isPlainObject, loadYaml } from './yaml-load';

/** The outcome of static processing, as lint's static check reports it. */
export type StaticResult =
  | { ok: true; model: ConfigModel; mergedYaml: string; includes: IncludedFile[]; warnings: string[] }
  | { ok: false; errors: string[]; warnings: string[]; mergedYaml: string | null; includes: IncludedFile[] | null };

/** GitLab's `merged_yaml`: the expanded configuration dumped as Ruby's `to_yaml` writes it. */
export function toMergedYaml(config: Record<string, unknown>): string {
  return `---\n${stringify(config, { indentSeq: false, lineWidth: 0, aliasDuplicateObjects: false, singleQuote: true })}`;
}

function fail(errors: string[], mergedYaml: string | null = null, includes: IncludedFile[] | null = null): StaticResult {
  return { ok: false, errors, warnings: [], mergedYaml, includes };
}

async function expand(text: string, ctx: IncludeContext): Promise<{ config: Record<string, unknown>; includes: IncludedFile[] } | string> {
  if (text.trim() === '') return 'Please provide content of .gitlab-ci.yml';
  const loaded = loadYaml(text);
  if (!loaded.ok) return loaded.error;
  if (!isPlainObject(loaded.value)) return 'Invalid configuration format';
  try {
    const { config, includes } = await processIncludes(loaded.value, ctx);
    const resolved = resolveReferences(resolveExtends(config));
    if (Array.isArray(resolved.stages)) resolved.stages = wrapStages(resolved.stages);
    return { config: resolved, includes };
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
}

function stageCheck(job: JobConfig, stages: string[]): string | null {
  if (stages.includes(job.stage)) return null;
  return `${job.name} job: chosen stage does not exist; available stages are ${stages.join(', ')}`;
}

function needsCheck(job: JobConfig, byName: Map<string, JobConfig>, stages: string[]): string | null {
  if (!job.needs) return null;
  if (job.needs.length > MAX_NEEDS) {
    return `${job.name}: one job can only need ${MAX_NEEDS} others, but you have listed ${job.needs.length}. See needs keyword documentation for more details`;
  }
  for (const need of job.needs) {
    const needed = byName.get(need.job);
    if (!needed) return `${job.name} job: undefined need: ${need.job}`;
    if (stages.indexOf(needed.stage) > stages.indexOf(job.stage)) return `${job.name} job: need ${need.job} is not defined in current or prior stages`;
  }
  return null;
}

function dependenciesCheck(job: JobConfig, byName: Map<string, JobConfig>, stages: string[]): string | null {
  if (!job.dependencies) return null;
  for (const dep of job.dependencies) {
    const needed = byName.get(dep);
    if (!needed) return `${job.name} job: undefined dependency: ${dep}`;
    if (stages.indexOf(needed.stage) > stages.indexOf(job.stage)) return `${job.name} job: dependency ${dep} is not defined in current or prior stages`;
  }
  if (job.needs) {
    const missing = job.dependencies.filter((d) => !job.needs!.some((n) => n.job === d));
    if (missing.length) return `jobs:${job.name} dependencies the ${missing.join(', ')} should be part of needs`;
  }
  return null;
}

/** The first logical error across jobs (YamlProcessor#validate_job!), or null. */
function logicalError(model: ConfigModel): string | null {
  const byName = new Map(model.jobs.map((j) => [j.name, j]));
  for (const job of model.jobs) {
    const error = stageCheck(job, model.stages) ?? needsCheck(job, byName, model.stages) ?? dependenciesCheck(job, byName, model.stages);
    if (error) return error;
  }
  return null;
}

function rulesWarnings(model: ConfigModel): string[] {
  if (model.workflowRules) return [];
  const warnings: string[] = [];
  for (const job of model.jobs) {
    const last = job.rules?.[job.rules.length - 1];
    if (last && Object.keys(last).length === 1 && 'when' in last && last.when !== 'never') {
      warnings.push(`jobs:${job.name} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings`);
    }
  }
  return warnings;
}

/** Dumping the merged YAML costs as much as parsing: done on first read only (pipeline creation never reads it). */
export function withLazyMergedYaml<T extends { mergedYaml: string }>(result: T, config: Record<string, unknown>): T {
  let dumped: string | null = null;
  return Object.defineProperty(result, 'mergedYaml', { enumerable: true, configurable: true, get: () => (dumped ??= toMergedYaml(config)) });
}

/** Processes the configuration text statically (what lint's static check runs). */
export async function processConfig(text: string, ctx: IncludeContext): Promise<StaticResult> {
  const expanded = await expand(text, ctx);
  if (typeof expanded === 'string') return fail([expanded]);
  const { errors, model } = validateRoot(expanded.config);
  if (!model) return fail(errors, toMergedYaml(expanded.config), expanded.includes);
  const logical = logicalError(model);
  if (logical) return fail([logical], toMergedYaml(expanded.config), expanded.includes);
  model.jobs.sort((a, b) => model.stages.indexOf(a.stage) - model.stages.indexOf(b.stage));
  const warnings = rulesWarnings(model);
  model.warnings = warnings;
  return withLazyMergedYaml({ ok: true as const, model, mergedYaml: '', includes: expanded.includes, warnings }, expanded.config);
}
