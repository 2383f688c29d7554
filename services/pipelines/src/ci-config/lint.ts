/**
 * The CI Lint report (GitLab's Gitlab::Ci::Lint#legacy_validate): a static check of the whole
 * configuration, or with `dryRun` a simulated pipeline creation for a ref. Pure apart from
 * `ctx.readLocal`.
 */
import { IncludedFile } from './include';
import type { JobConfig } from './model';
import { processConfig } from './process';
import { DEFAULT_ONLY } from './refs';
import { evaluateWorkflow, SeedError, seedJobs } from './seed';
import type { CompileContext } from './types';

/** Most warnings lint reports (GitLab's Gitlab::Ci::Warnings::MAX_LIMIT). */
export const MAX_WARNINGS = 25;

/** One job as lint's `jobs` lists it. */
export type LintJob = Record<string, unknown>;

/** What lint reports (GitLab's Entities::Ci::Lint::Result, before `include_jobs`). */
export interface LintResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
  merged_yaml: string | null;
  includes: IncludedFile[] | null;
  jobs: LintJob[];
}

function environmentName(env: unknown): string | null {
  if (typeof env === 'string') return env;
  if (env && typeof env === 'object' && 'name' in env) return String((env as { name: unknown }).name);
  return null;
}

function staticJob(job: JobConfig, hasWorkflowRules: boolean): LintJob {
  const defaultOnly = job.rules || hasWorkflowRules ? null : DEFAULT_ONLY;
  return {
    name: job.name,
    stage: job.stage,
    before_script: job.beforeScript ?? [],
    script: job.script,
    after_script: job.afterScript ?? [],
    tag_list: job.tags ?? [],
    only: job.only ?? defaultOnly,
    except: job.except,
    environment: environmentName(job.environment),
    when: job.when,
    allow_failure: typeof job.allowFailure === 'boolean' ? job.allowFailure : job.allowFailure ? false : job.when === 'manual',
    needs: job.needs ? job.needs.map((n) => ({ name: n.job, artifacts: n.artifacts, optional: n.optional })) : null,
  };
}

/** Lints a configuration; `dryRun` evaluates it for `ctx.ref` as pipeline creation would. */
export async function lintCiConfig(yaml: string, ctx: CompileContext, dryRun: boolean): Promise<LintResult> {
  const processed = await processConfig(yaml, ctx);
  if (!processed.ok) {
    return { valid: false, errors: processed.errors, warnings: processed.warnings, merged_yaml: processed.mergedYaml, includes: processed.includes, jobs: [] };
  }
  const { model } = processed;
  const base = { warnings: processed.warnings.slice(0, MAX_WARNINGS), merged_yaml: processed.mergedYaml, includes: processed.includes };
  if (!dryRun) return { valid: true, errors: [], ...base, jobs: model.jobs.map((j) => staticJob(j, model.workflowRules !== null)) };
  try {
    const variables = evaluateWorkflow(model, ctx.variables);
    const jobs = seedJobs(model, variables, { ref: ctx.ref, tag: ctx.tag ?? false, source: ctx.source, projectPath: ctx.projectPath ?? null, variables: ctx.variables });
    const listed = jobs.map((j) => ({
      name: j.name, stage: j.stage, before_script: j.beforeScript, script: j.script, after_script: j.afterScript,
      tag_list: j.tags, environment: environmentName(j.options.environment), when: j.when, allow_failure: j.allowFailure,
    }));
    return { valid: true, errors: [], ...base, jobs: listed };
  } catch (err) {
    if (err instanceof SeedError) return { valid: false, errors: [err.message], ...base, jobs: [] };
    throw err;
  }
}
