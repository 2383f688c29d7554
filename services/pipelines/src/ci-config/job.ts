/**
 * One job's validation and normalisation as GitLab's Entry::Job + Entry::Processable: allowed keys,
 * `script`, `when`/`start_in`, `rules` exclusivity, child entries, then `default:` inheritance.
 * Pure. See ../shared/reference/ci-config.md §2, §4, §6.
 */
import { parseDuration, START_IN_LIMIT_SECONDS, TIMEOUT_LIMIT_SECONDS } from './duration';
import {
  checkAllowFailure, checkArtifacts, checkImage, checkPolicy, checkRetry, checkRules, checkServices, checkVariables,
  Errors, flattenStrings, isArrayOfStrings, isNestedArrayOfHashes, isNestedStrings,
} from './entries';
import type { JobConfig, Need } from './model';
import { checkParallel } from './parallel';
import { isPlainObject, setOwn } from './yaml-load';

/** Keys a job may have (Job::ALLOWED_KEYS + Processable::PROCESSABLE_ALLOWED_KEYS). */
export const JOB_KEYS = [
  'tags', 'script', 'image', 'services', 'start_in', 'artifacts', 'cache', 'dependencies', 'before_script', 'after_script',
  'hooks', 'coverage', 'retry', 'parallel', 'timeout', 'release', 'id_tokens', 'publish', 'pages', 'manual_confirmation',
  'run', 'extends', 'stage', 'only', 'except', 'rules', 'variables', 'inherit', 'allow_failure', 'when', 'needs',
  'resource_group', 'environment', 'interruptible', 'secrets', 'identity',
];
/** Keys `default:` may set (Entry::Default::ALLOWED_KEYS). */
export const DEFAULT_KEYS = ['before_script', 'image', 'services', 'after_script', 'cache', 'interruptible', 'timeout', 'retry', 'tags', 'artifacts', 'hooks', 'id_tokens'];
/** `when:` values a job accepts. */
export const JOB_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
/** `when:` values a job rule accepts. */
export const RULE_WHEN = ['on_success', 'on_failure', 'always', 'never', 'manual', 'delayed'];
/** Keys a job rule accepts. */
export const RULE_KEYS = ['if', 'changes', 'exists', 'when', 'start_in', 'allow_failure', 'variables', 'needs', 'interruptible'];
/** Most jobs one job may need (GitLab's default `ci_max_needs` limit). */
export const MAX_NEEDS = 50;

/** A visible job: not hidden, a mapping with `script` or `run` (Entry::Job.matching?). */
export function isJob(name: string, value: unknown): value is Record<string, unknown> {
  return !name.startsWith('.') && isPlainObject(value) && ('script' in value || 'run' in value);
}

function checkCommands(errors: Errors, location: string, value: unknown): void {
  if (!isNestedStrings(value)) errors.add(location, 'config should be a string or a nested array of strings up to 10 levels deep');
}

function needOf(errors: Errors, at: string, need: unknown): Need | null {
  if (typeof need === 'string') {
    if (need === '') errors.add(at, "config can't be blank");
    return { job: need, artifacts: true, optional: false };
  }
  if (isPlainObject(need) && 'job' in need && !('project' in need) && !('ref' in need) && !('pipeline' in need)) {
    errors.unknownKeys(at, need, ['job', 'artifacts', 'optional', 'parallel']);
    if (need.job === null || need.job === '') errors.add(at, "job can't be blank");
    else if (typeof need.job !== 'string') errors.add(at, 'job should be a string');
    if ('artifacts' in need && typeof need.artifacts !== 'boolean') errors.add(at, 'artifacts should be a boolean value');
    if ('optional' in need && typeof need.optional !== 'boolean') errors.add(at, 'optional should be a boolean value');
    return { job: String(need.job), artifacts: need.artifacts !== false, optional: need.optional === true };
  }
  if (isPlainObject(need) && 'job' in need && 'pipeline' in need && !('project' in need)) return null;
  errors.list.push(`${at} has an unsupported type`);
  return null;
}

/** Validates `needs:` (Entry::Needs + Entry::Need); returns the same-pipeline needs. */
function checkNeeds(errors: Errors, location: string, value: unknown): Need[] | null {
  if (!Array.isArray(value) && !isPlainObject(value)) {
    errors.add(location, value === null || value === '' ? "config can't be blank" : 'config can only be a hash or an array');
    return null;
  }
  const list = (Array.isArray(value) ? value : [value]).flat(10);
  return list.map((need) => needOf(errors, `${location}:need`, need)).filter((n): n is Need => n !== null);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Processable's then Job's own validations, in GitLab's declaration order. */
function jobOwnChecks(errors: Errors, at: string, job: Record<string, unknown>): void {
  const hasRules = present(job.rules);
  if (hasRules) {
    const used = ['only', 'except', 'start_in'].filter((k) => present(job[k]));
    if (used.length) errors.add(at, `config key may not be used with \`rules\`: ${used.join(', ')}`);
  }
  if (present(job.extends) && typeof job.extends !== 'string' && !isArrayOfStrings(job.extends)) errors.add(at, 'extends should be an array of strings or a string');
  if (hasRules && !isNestedArrayOfHashes(job.rules)) errors.add(at, 'rules should be an array containing hashes and arrays of hashes');
  if (present(job.resource_group) && typeof job.resource_group !== 'string') errors.add(at, 'resource group should be a string');
  errors.unknownKeys(at, job, JOB_KEYS);
  if ('script' in job && 'run' in job) errors.add(at, 'config these keys cannot be used together: script, run');
  if ('script' in job && (job.script === null || job.script === '' || (Array.isArray(job.script) && job.script.length === 0))) errors.add(at, "script can't be blank");
  if (present(job.when) && !JOB_WHEN.includes(job.when as string)) errors.add(at, `when should be one of: ${JOB_WHEN.join(', ')}`);
  if (present(job.dependencies) && !isArrayOfStrings(job.dependencies)) errors.add(at, 'dependencies should be an array of strings');
  if (present(job.allow_failure) && typeof job.allow_failure !== 'boolean' && !isPlainObject(job.allow_failure)) errors.add(at, 'allow failure should be a hash or a boolean value');
  if (job.when === 'delayed') {
    const secs = parseDuration(job.start_in);
    if (secs === null) errors.add(at, 'start in should be a duration');
    else if (secs > START_IN_LIMIT_SECONDS) errors.add(at, 'start in should not exceed the limit');
  }
  if (present(job.start_in) && (hasRules || job.when !== 'delayed')) errors.add(at, 'start in must be blank');
}

function checkTimeout(errors: Errors, at: string, value: unknown): void {
  const secs = parseDuration(value);
  if (secs === null) errors.add(at, 'config should be a duration');
  else if (secs > TIMEOUT_LIMIT_SECONDS) errors.add(at, 'config should not exceed the limit');
}

/**
 * The entries a job shares with `default:` (and the top-level defaults), validated at `at:<key>`
 * (at the key alone when `at` is empty).
 */
export function checkSharedEntries(errors: Errors, at: string, value: Record<string, unknown>): void {
  const loc = (key: string) => (at ? `${at}:${key}` : key);
  const has = (key: string) => Object.prototype.hasOwnProperty.call(value, key);
  if (has('before_script')) checkCommands(errors, loc('before_script'), value.before_script);
  if (has('script') && value.script !== null && value.script !== '') checkCommands(errors, loc('script'), value.script);
  if (has('after_script')) checkCommands(errors, loc('after_script'), value.after_script);
  if (has('stage') && typeof value.stage !== 'string') errors.add(loc('stage'), 'config should be a string');
  if (has('image')) checkImage(errors, loc('image'), value.image);
  if (has('services')) checkServices(errors, loc('services'), value.services);
  if (has('retry')) checkRetry(errors, loc('retry'), value.retry);
  if (present(value.timeout)) checkTimeout(errors, loc('timeout'), value.timeout);
  if (has('tags') && !isArrayOfStrings(value.tags)) errors.add(loc('tags'), 'config should be an array of strings');
  if (has('artifacts')) checkArtifacts(errors, loc('artifacts'), value.artifacts);
}

function jobEntryChecks(errors: Errors, at: string, job: Record<string, unknown>): void {
  checkSharedEntries(errors, at, job);
  if ('needs' in job) checkNeeds(errors, `${at}:needs`, job.needs);
  if ('allow_failure' in job) checkAllowFailure(errors, `${at}:allow_failure`, job.allow_failure);
  if (present(job.only)) checkPolicy(errors, `${at}:only`, job.only);
  if (present(job.except)) checkPolicy(errors, `${at}:except`, job.except);
  if (present(job.rules)) checkRules(errors, `${at}:rules`, job.rules, RULE_WHEN, RULE_KEYS);
  if ('variables' in job) checkVariables(errors, `${at}:variables`, job.variables, ['value', 'expand']);
  if ('inherit' in job) checkInherit(errors, `${at}:inherit`, job.inherit);
  if (present(job.parallel)) checkParallel(errors, `${at}:parallel`, job.parallel);
}

function checkInherit(errors: Errors, at: string, value: unknown): void {
  if (!isPlainObject(value)) return errors.add(at, 'config should be a hash');
  errors.unknownKeys(at, value, ['default', 'variables']);
  for (const key of ['default', 'variables']) {
    if (key in value && typeof value[key] !== 'boolean' && !isArrayOfStrings(value[key])) {
      errors.add(`${at}:${key}`, 'config should be a boolean value or an array of strings');
    }
  }
}

/** The `default:` entries a job takes (those it does not set itself, as `inherit:default` allows). */
function withDefaults(job: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const inherit = isPlainObject(job.inherit) ? job.inherit.default : undefined;
  const allowed = (key: string) => (inherit === false ? false : Array.isArray(inherit) ? inherit.includes(key) : true);
  const out = { ...job };
  for (const [key, value] of Object.entries(defaults)) {
    if (!Object.prototype.hasOwnProperty.call(out, key) && allowed(key)) setOwn(out, key, value);
  }
  return out;
}

function imageOf(value: unknown): JobConfig['image'] {
  if (typeof value === 'string') return { name: value };
  if (isPlainObject(value)) return { name: String(value.name), ...(isArrayOfStrings(value.entrypoint) ? { entrypoint: value.entrypoint } : {}) };
  return null;
}

function servicesOf(value: unknown): JobConfig['services'] {
  if (!Array.isArray(value)) return null;
  return value.map((s) => (typeof s === 'string' ? { name: s } : { ...(s as Record<string, unknown>) } as { name: string }));
}

function retryOf(value: unknown): JobConfig['retry'] {
  if (Number.isInteger(value)) return { max: value as number, when: ['always'] };
  if (!isPlainObject(value)) return null;
  const when = typeof value.when === 'string' ? [value.when] : isArrayOfStrings(value.when) ? value.when : ['always'];
  return { max: Number.isInteger(value.max) ? (value.max as number) : 0, when };
}

function allowFailureOf(value: unknown): JobConfig['allowFailure'] {
  if (typeof value === 'boolean') return value;
  if (isPlainObject(value)) return { exit_codes: Array.isArray(value.exit_codes) ? (value.exit_codes as number[]) : [value.exit_codes as number] };
  return null;
}

/**
 * Validates one visible job (recording GitLab's errors) and returns it normalised with its defaults,
 * or null when it has errors.
 */
export function buildJob(errors: Errors, name: string, job: Record<string, unknown>, defaults: Record<string, unknown>): JobConfig | null {
  const before = errors.list.length;
  const at = `jobs:${name}`;
  if (name.length > 255) errors.add(at, 'name is too long (maximum is 255 characters)');
  jobOwnChecks(errors, at, job);
  jobEntryChecks(errors, at, job);
  if (errors.list.length > before) return null;
  const full = withDefaults(job, defaults);
  const inheritVars = isPlainObject(job.inherit) ? job.inherit.variables : undefined;
  const needs = present(job.needs) ? checkNeeds(new Errors(), '', job.needs) : null;
  return {
    name,
    stage: typeof job.stage === 'string' ? job.stage : 'test',
    script: flattenStrings(job.script),
    beforeScript: 'before_script' in full ? flattenStrings(full.before_script) : null,
    afterScript: 'after_script' in full ? flattenStrings(full.after_script) : null,
    image: imageOf(full.image),
    services: servicesOf(full.services),
    tags: isArrayOfStrings(full.tags) ? full.tags : null,
    when: typeof job.when === 'string' ? job.when : 'on_success',
    startIn: job.start_in === undefined || job.start_in === null ? null : String(job.start_in),
    allowFailure: allowFailureOf(job.allow_failure),
    needs,
    rules: Array.isArray(job.rules) ? (job.rules.flat(10) as Record<string, unknown>[]) : null,
    only: policyOf(job.only, true),
    except: policyOf(job.except, false),
    retry: retryOf(full.retry),
    timeout: full.timeout === undefined || full.timeout === null ? null : String(full.timeout),
    artifacts: isPlainObject(full.artifacts) ? full.artifacts : null,
    variables: variablesOf(job.variables),
    inheritVariables: typeof inheritVars === 'boolean' || isArrayOfStrings(inheritVars) ? inheritVars : true,
    dependencies: isArrayOfStrings(job.dependencies) ? job.dependencies : null,
    environment: job.environment ?? null,
    parallel: job.parallel ?? null,
    raw: full,
  };
}

function variablesOf(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) setOwn(out, k, isPlainObject(v) ? String(v.value ?? '') : String(v));
  return out;
}

/**
 * `only`/`except` in GitLab's normalised form (`{refs: [...], variables: [...], …}`); an `only` hash
 * without `refs` keeps the default refs (Entry::Policy#value deep-merges `{refs: [branches, tags]}`).
 */
export function policyOf(value: unknown, isOnly: boolean): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return { refs: value };
  if (isPlainObject(value)) return isOnly && !('refs' in value) ? { refs: ['branches', 'tags'], ...value } : value;
  return null;
}
