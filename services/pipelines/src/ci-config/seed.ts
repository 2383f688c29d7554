/**
 * Ref-specific evaluation of a processed configuration, as GitLab's pipeline chain does it:
 * `workflow:rules` (EvaluateWorkflowRules), each job's `rules` or `only`/`except` (Seed::Build), needs
 * left dangling by omitted jobs (Seed), and the empty-pipeline check (Populate). Pure.
 * See ../shared/reference/ci-config.md §4, §5, §7, §9.
 */
import { parseDuration } from './duration';
import { evaluateExpression, ExpressionError } from './expression';
import type { CompiledJob, JobWhen } from './types';
import type { ConfigModel, JobConfig, Need } from './model';
import { expandNeeds, instancesOf } from './parallel';
import { DEFAULT_ONLY, policyAllows, PolicyContext } from './refs';
import { isPlainObject } from './yaml-load';

/** Raised with the pipeline chain's message. */
export class SeedError extends Error {
  constructor(message: string, readonly filtered = false) {
    super(message);
  }
}

/** GitLab's message when no job is left (Chain::Populate). */
export const NO_JOBS_MESSAGE = 'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.';
/** GitLab's message when workflow rules refuse the pipeline. */
export const FILTERED_MESSAGE = 'Pipeline filtered out by workflow rules.';

function ruleMatches(rule: Record<string, unknown>, vars: Record<string, string>, jobName: string | null): boolean {
  if (typeof rule.if !== 'string') return true;
  try {
    return evaluateExpression(rule.if, vars);
  } catch (err) {
    if (err instanceof ExpressionError && jobName) throw new SeedError(`Failed to parse rule for ${jobName}: ${err.message}`);
    if (err instanceof ExpressionError) throw new SeedError(`Failed to parse workflow rules: ${err.message}`);
    throw err;
  }
}

function firstRule(rules: Record<string, unknown>[], vars: Record<string, string>, jobName: string | null): Record<string, unknown> | null {
  return rules.find((rule) => ruleMatches(rule, vars, jobName)) ?? null;
}

function stringVars(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(isPlainObject(v) ? v.value ?? '' : v)]));
}

/** Applies `workflow:rules`: the root variables to use, or SeedError(filtered). */
export function evaluateWorkflow(model: ConfigModel, pipelineVars: Record<string, string>): Record<string, string> {
  if (!model.workflowRules) return model.variables;
  const rule = firstRule(model.workflowRules, { ...model.variables, ...pipelineVars }, null);
  if (!rule || rule.when === 'never') throw new SeedError(FILTERED_MESSAGE, true);
  return { ...model.variables, ...stringVars(rule.variables) };
}

function inheritedRootVars(job: JobConfig, rootVars: Record<string, string>): Record<string, string> {
  if (job.inheritVariables === true) return rootVars;
  if (job.inheritVariables === false) return {};
  const names = job.inheritVariables;
  return Object.fromEntries(Object.entries(rootVars).filter(([k]) => names.includes(k)));
}

function needsOf(value: unknown): Need[] | null {
  if (!Array.isArray(value)) return null;
  return value.map((n) => (typeof n === 'string' ? { job: n, artifacts: true, optional: false } : { job: String((n as Record<string, unknown>).job), artifacts: (n as Record<string, unknown>).artifacts !== false, optional: (n as Record<string, unknown>).optional === true }));
}

function artifactsOf(raw: Record<string, unknown> | null): CompiledJob['artifacts'] {
  if (!raw) return null;
  const junit = isPlainObject(raw.reports) ? raw.reports.junit : undefined;
  return {
    paths: Array.isArray(raw.paths) ? (raw.paths as string[]) : [],
    expireIn: raw.expire_in === undefined ? null : String(raw.expire_in),
    when: (raw.when as 'on_success') ?? 'on_success',
    reports: { junit: typeof junit === 'string' ? [junit] : Array.isArray(junit) ? (junit as string[]) : [] },
  };
}

/** The job's build options as GitLab keeps them (what runners receive and lint reports). */
function optionsOf(job: JobConfig, startIn: string | null, needs: Need[] | null): Record<string, unknown> {
  const entries: [string, unknown][] = [
    ['image', job.image], ['services', job.services], ['artifacts', job.artifacts], ['cache', job.raw.cache],
    ['dependencies', job.dependencies], ['before_script', job.beforeScript], ['script', job.script],
    ['after_script', job.afterScript], ['environment', job.environment ?? undefined], ['retry', job.retry],
    ['start_in', startIn], ['allow_failure_criteria', isPlainObject(job.allowFailure) ? job.allowFailure : undefined],
    ['needs', needs ?? undefined], ['tags', job.tags],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined && v !== null));
}

interface Evaluated {
  when: string;
  allowFailure: boolean | null;
  startIn: string | null;
  variables: Record<string, string>;
  needs: Need[] | null;
}

function evaluateJob(job: JobConfig, vars: Record<string, string>, pctx: PolicyContext, hasWorkflowRules: boolean): Evaluated | null {
  const base: Evaluated = { when: job.when, allowFailure: null, startIn: job.startIn, variables: {}, needs: job.needs };
  if (job.rules) {
    const rule = firstRule(job.rules, vars, job.name);
    if (!rule || rule.when === 'never') return null;
    return {
      when: typeof rule.when === 'string' ? rule.when : job.when,
      allowFailure: typeof rule.allow_failure === 'boolean' ? rule.allow_failure : null,
      startIn: rule.start_in === undefined ? job.startIn : String(rule.start_in),
      variables: stringVars(rule.variables),
      needs: 'needs' in rule ? needsOf(rule.needs) : job.needs,
    };
  }
  const only = job.only ?? (hasWorkflowRules ? null : DEFAULT_ONLY);
  return policyAllows(only, job.except, pctx) ? base : null;
}

function staticAllowFailure(job: JobConfig): boolean {
  if (typeof job.allowFailure === 'boolean') return job.allowFailure;
  if (job.allowFailure) return false;
  return job.when === 'manual';
}

/** Builds the jobs of a pipeline for one ref; throws SeedError with the chain's message. */
export function seedJobs(model: ConfigModel, rootVars: Record<string, string>, pctx: PolicyContext): CompiledJob[] {
  const kept: { job: JobConfig; result: Evaluated; yamlVars: Record<string, string> }[] = [];
  for (const job of model.jobs) {
    if (job.bridge) continue;
    const yamlVars = { ...inheritedRootVars(job, rootVars), ...job.variables };
    const result = evaluateJob(job, { ...yamlVars, ...pctx.variables }, pctx, model.workflowRules !== null);
    if (result) kept.push({ job, result, yamlVars });
  }
  checkDanglingNeeds(kept.map((k) => ({ name: k.job.name, needs: k.result.needs })));
  const names = new Set(kept.map((k) => k.job.name));
  const instances = new Map(kept.map((k) => [k.job.name, instancesOf(k.job.name, k.job.parallel)]));
  const instanceNames = new Map([...instances].map(([name, list]) => [name, list.map((i) => i.name)]));
  const jobs = kept.flatMap(({ job, result, yamlVars }) => {
    const needs = expandNeeds(result.needs?.filter((n) => names.has(n.job)) ?? null, instanceNames);
    return instances.get(job.name)!.map((instance) => compiledJob(model, job, { ...result, needs }, { ...yamlVars, ...instance.variables }, instance.name));
  });
  if (jobs.every((j) => j.stage === '.pre' || j.stage === '.post')) throw new SeedError(NO_JOBS_MESSAGE);
  return jobs;
}

function compiledJob(model: ConfigModel, job: JobConfig, result: Evaluated, yamlVars: Record<string, string>, name: string): CompiledJob {
  return {
    name,
    stage: job.stage,
    stageIdx: model.stages.indexOf(job.stage),
    script: job.script,
    beforeScript: job.beforeScript ?? [],
    afterScript: job.afterScript ?? [],
    image: job.image,
    services: job.services ?? [],
    tags: job.tags ?? [],
    when: result.when as JobWhen,
    startInSeconds: result.when === 'delayed' ? parseDuration(result.startIn) : null,
    allowFailure: result.allowFailure ?? staticAllowFailure(job),
    allowFailureExitCodes: isPlainObject(job.allowFailure) ? job.allowFailure.exit_codes : [],
    needs: result.needs,
    retry: job.retry ?? { max: 0, when: ['always'] },
    timeoutSeconds: job.timeout === null ? null : parseDuration(job.timeout),
    artifacts: artifactsOf(job.artifacts),
    variables: { ...yamlVars, ...result.variables },
    options: optionsOf(job, result.when === 'delayed' ? result.startIn : null, result.needs),
  };
}

/** A required need on a job left out of the pipeline is the Seed step's error (optional ones are dropped). */
function checkDanglingNeeds(jobs: { name: string; needs: Need[] | null }[]): void {
  const names = new Set(jobs.map((j) => j.name));
  for (const job of jobs) {
    const missing = job.needs?.find((n) => !names.has(n.job) && !n.optional);
    if (missing) {
      throw new SeedError(`'${job.name}' job needs '${missing.job}' job, but '${missing.job}' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.`);
    }
  }
}
