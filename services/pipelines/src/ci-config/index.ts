/**
 * The CI configuration compiler: `.gitlab-ci.yml` text to the jobs of a pipeline for one ref, with
 * GitLab's validation and error messages; and the lint report built on it.
 * See ../shared/reference/ci-config.md.
 */
import { lintCiConfig } from './lint';
import { processConfig } from './process';
import { evaluateWorkflow, SeedError, seedJobs } from './seed';
import { expandVariables } from './variables';
import type { CompileContext, CompileResult } from './types';

export type { CompileContext, CompileResult, CompiledJob, JobWhen } from './types';
export type { LintResult, LintJob } from './lint';
export { lintCiConfig };

/**
 * Compiles a configuration for the pipeline described by `ctx`: includes, extends, references,
 * validation, workflow rules, job rules and only/except. Errors carry GitLab's messages (the first
 * one is what pipeline creation reports); never throws for bad configuration.
 */
export async function compileCiConfig(yaml: string, ctx: CompileContext): Promise<CompileResult> {
  const processed = await processConfig(yaml, ctx);
  if (!processed.ok) return { ok: false, errors: processed.errors, warnings: processed.warnings };
  const { model } = processed;
  try {
    const variables = evaluateWorkflow(model, ctx.variables);
    const jobs = seedJobs(model, variables, {
      ref: ctx.ref,
      tag: ctx.tag ?? false,
      source: ctx.source,
      projectPath: ctx.projectPath ?? null,
      variables: ctx.variables,
    });
    const name = model.workflowName === null ? null : expandVariables(model.workflowName, { ...variables, ...ctx.variables });
    const result = { ok: true as const, stages: model.stages, jobs, variables, name, mergedYaml: '', warnings: processed.warnings };
    return Object.defineProperty(result, 'mergedYaml', { enumerable: true, get: () => processed.mergedYaml });
  } catch (err) {
    if (err instanceof SeedError) return { ok: false, errors: [err.message], warnings: processed.warnings, ...(err.filtered ? { filtered: true } : {}) };
    throw err;
  }
}
