/**
 * Validators for the small entries of a CI configuration, each returning GitLab's message (without the
 * location prefix) or null, as GitLab's Gitlab::Ci::Config::Entry classes word them. Pure.
 */
import { parseDuration } from './duration';
import { isValidExpression } from './expression';
import { isPlainObject, setOwn } from './yaml-load';

/** Collects errors as GitLab's Entry::Validator renders them: `<location> <message>`, lower-cased. */
export class Errors {
  readonly list: string[] = [];

  add(location: string, message: string): void {
    this.list.push(`${location} ${message}`.toLowerCase());
  }

  /** Adds `config contains unknown keys: a, b` when `value` has keys outside `allowed`. */
  unknownKeys(location: string, value: Record<string, unknown>, allowed: readonly string[]): void {
    const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
    if (unknown.length) this.add(location, `config contains unknown keys: ${unknown.join(', ')}`);
  }
}

/** True for a string or a list of strings nested at most `depth` levels. */
export function isNestedStrings(value: unknown, depth = 10): boolean {
  if (typeof value === 'string') return true;
  if (!Array.isArray(value) || depth === 0) return false;
  return value.every((v) => typeof v === 'string' || (Array.isArray(v) && isNestedStrings(v, depth - 1)));
}

/** Flattens a nested list of commands (GitLab's Entry::Commands value). */
export function flattenStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(flattenStrings);
  return [];
}

/** True for an array of strings. */
export function isArrayOfStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isAlphanumeric(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Validates `variables:` as Entry::Variables/Entry::Variable: a mapping of names to strings or integers,
 * or to `{value, …}` with the data keys `allowedData` allows (none: values must be strings). Returns
 * the names-to-values map, or null after recording the errors.
 */
export function checkVariables(errors: Errors, location: string, value: unknown, allowedData: readonly string[]): Record<string, string> | null {
  if (!isPlainObject(value)) {
    errors.add(location, 'config should be a hash');
    return null;
  }
  const before = errors.list.length;
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(value)) {
    const at = `${location}:${key}`;
    if (isAlphanumeric(raw)) setOwn(out, key, String(raw));
    else if (isPlainObject(raw)) {
      if ('value' in raw && raw.value !== null && !isAlphanumeric(raw.value)) errors.add(at, 'config value must be an alphanumeric string');
      if ('description' in raw && raw.description !== null && !isAlphanumeric(raw.description)) errors.add(at, 'config description must be an alphanumeric string');
      if ('expand' in raw && typeof raw.expand !== 'boolean') errors.add(at, 'config expand should be a boolean value');
      if ('options' in raw && !isArrayOfStrings(raw.options)) errors.add(at, 'config options should be an array of strings');
      const extra = Object.keys(raw).filter((k) => !allowedData.includes(k));
      if (!allowedData.length) errors.add(at, 'config must be a string');
      else if (extra.length) errors.add(at, `config uses invalid data keys: ${extra.join(', ')}`);
      if (isArrayOfStrings(raw.options) && raw.options.length && !raw.options.includes(String(raw.value))) errors.add(at, 'config value must be present in options');
      setOwn(out, key, raw.value === undefined || raw.value === null ? '' : String(raw.value));
    } else errors.list.push('variable definition must be either a string or a hash');
  }
  return errors.list.length > before ? null : out;
}

/** Validates `image:` (a string or `{name, entrypoint, …}`). */
export function checkImage(errors: Errors, location: string, value: unknown): void {
  if (typeof value === 'string') return;
  if (!isPlainObject(value)) return errors.add(location, 'config should be a hash or a string');
  errors.unknownKeys(location, value, ['name', 'entrypoint', 'docker', 'pull_policy', 'kubernetes']);
  if (value.name === undefined || value.name === null || value.name === '') errors.add(location, "name can't be blank");
  else if (typeof value.name !== 'string') errors.add(location, 'name should be a string');
  if ('entrypoint' in value && !isArrayOfStrings(value.entrypoint)) errors.add(location, 'entrypoint should be an array of strings');
}

/** Validates `services:` (a list of strings or `{name, alias, entrypoint, command}`). */
export function checkServices(errors: Errors, location: string, value: unknown): void {
  if (!Array.isArray(value)) return errors.add(location, 'config should be an array');
  value.forEach((service) => {
    const at = `${location}:service`;
    if (typeof service === 'string') return;
    if (!isPlainObject(service)) return errors.add(at, 'config should be a hash or a string');
    errors.unknownKeys(at, service, ['name', 'entrypoint', 'command', 'alias', 'ports', 'variables', 'pull_policy', 'docker', 'kubernetes']);
    if (service.name === undefined || service.name === null || service.name === '') errors.add(at, "name can't be blank");
    else if (typeof service.name !== 'string') errors.add(at, 'name should be a string');
  });
}

/** Validates `allow_failure:` (a boolean or `{exit_codes: int | [int]}`). */
export function checkAllowFailure(errors: Errors, location: string, value: unknown): void {
  if (typeof value === 'boolean') return;
  if (!isPlainObject(value)) return errors.add(location, 'config should be a hash or a boolean value');
  errors.unknownKeys(location, value, ['exit_codes']);
  const codes = value.exit_codes;
  const ok = codes === undefined || codes === null || Number.isInteger(codes) || (Array.isArray(codes) && codes.every(Number.isInteger));
  if (!ok) errors.add(location, 'exit codes should be an array of integers or an integer');
}

const RETRY_WHEN = [
  'always', 'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure',
  'runner_unsupported', 'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites',
  'scheduler_failure', 'data_integrity_failure',
];

/** Validates `retry:` (0–2, or `{max, when, exit_codes}`). */
export function checkRetry(errors: Errors, location: string, value: unknown): void {
  const checkMax = (max: unknown, what: string) => {
    if (!Number.isInteger(max)) return errors.add(location, `${what} should be an integer`);
    if ((max as number) < 0) errors.add(location, `${what} must be greater than or equal to 0`);
    if ((max as number) > 2) errors.add(location, `${what} must be less than or equal to 2`);
  };
  if (Number.isInteger(value)) return checkMax(value, 'config');
  if (!isPlainObject(value)) return errors.add(location, 'config has to be either an integer or a hash');
  errors.unknownKeys(location, value, ['max', 'when', 'exit_codes']);
  if ('max' in value) checkMax(value.max, 'max');
  if ('when' in value) {
    const list = typeof value.when === 'string' ? [value.when] : value.when;
    if (!isArrayOfStrings(list)) errors.add(location, 'when should be an array of strings or a string');
    else {
      const bad = list.filter((w) => !RETRY_WHEN.includes(w));
      if (bad.length) errors.add(location, `when contains unknown values: ${bad.join(', ')}`);
    }
  }
}

/** Validates `artifacts:`. */
export function checkArtifacts(errors: Errors, location: string, value: unknown): void {
  if (!isPlainObject(value)) return errors.add(location, 'config should be a hash');
  errors.unknownKeys(location, value, ['name', 'untracked', 'paths', 'reports', 'when', 'expire_in', 'expose_as', 'exclude', 'public', 'access']);
  if ('name' in value && typeof value.name !== 'string') errors.add(location, 'name should be a string');
  if ('untracked' in value && typeof value.untracked !== 'boolean') errors.add(location, 'untracked should be a boolean value');
  if ('paths' in value && !isArrayOfStrings(value.paths)) errors.add(location, 'paths should be an array of strings');
  if ('exclude' in value && !isArrayOfStrings(value.exclude)) errors.add(location, 'exclude should be an array of strings');
  if ('when' in value && !['on_success', 'on_failure', 'always'].includes(value.when as string)) errors.add(location, 'when should be on_success, on_failure or always');
  if ('expire_in' in value && value.expire_in !== 'never' && parseDuration(value.expire_in) === null) errors.add(location, 'expire in should be a duration');
  if ('reports' in value) {
    const reports = value.reports;
    const at = `${location}:reports`;
    if (!isPlainObject(reports)) return errors.add(at, 'config should be a hash');
    errors.unknownKeys(at, reports, ['junit', 'coverage_report', 'codequality', 'sast', 'dependency_scanning', 'container_scanning', 'dast', 'license_scanning', 'performance', 'browser_performance', 'load_performance', 'metrics', 'terraform', 'accessibility', 'dotenv', 'cyclonedx', 'requirements', 'secret_detection', 'api_fuzzing', 'cluster_image_scanning', 'coverage_fuzzing', 'annotations', 'repository_xray']);
    if ('junit' in reports && typeof reports.junit !== 'string' && !isArrayOfStrings(reports.junit)) errors.add(at, 'junit should be an array of strings or a string');
  }
}

function checkRule(errors: Errors, at: string, rule: unknown, allowedWhen: readonly string[], allowedKeys: readonly string[]): void {
  if (!isPlainObject(rule) || Object.keys(rule).length === 0) {
    return errors.add(at, isPlainObject(rule) || rule === null ? "config can't be blank" : 'config should be a hash');
  }
  const delayed = rule.when === 'delayed';
  if (!delayed && 'start_in' in rule) errors.add(at, 'config contains disallowed keys: start_in');
  if (delayed && (rule.start_in === undefined || rule.start_in === null || rule.start_in === '')) errors.add(at, "start in can't be blank");
  if (delayed && parseDuration(rule.start_in) === null) errors.add(at, 'start in should be a duration');
  if (delayed && (parseDuration(rule.start_in) ?? 0) > 604800) errors.add(at, 'start in should not exceed the limit');
  if ('if' in rule && rule.if !== null && (typeof rule.if !== 'string' || !isValidExpression(rule.if))) errors.add(at, 'if invalid expression syntax');
  if ('allow_failure' in rule && rule.allow_failure !== null && typeof rule.allow_failure !== 'boolean') errors.add(at, 'allow failure should be a boolean value');
  if ('when' in rule && rule.when !== null && !allowedWhen.includes(String(rule.when))) errors.add(at, `when unknown value: ${String(rule.when)}`);
  errors.unknownKeys(at, rule, allowedKeys);
  if ('variables' in rule) checkVariables(errors, `${at}:variables`, rule.variables, []);
}

/** Validates one `rules:` list (job or workflow): arrays of rules may nest (they are flattened). */
export function checkRules(errors: Errors, location: string, value: unknown, allowedWhen: readonly string[], allowedKeys: readonly string[]): void {
  if (!Array.isArray(value)) return errors.add(location, 'config should be an array');
  for (const rule of value.flat(10)) checkRule(errors, `${location}:rule`, rule, allowedWhen, allowedKeys);
}

/** True for rules as Processable accepts them: hashes, or arrays of hashes nested up to 10 levels. */
export function isNestedArrayOfHashes(value: unknown, depth = 10): boolean {
  if (!Array.isArray(value) || depth === 0) return false;
  return value.every((v) => isPlainObject(v) || isNestedArrayOfHashes(v, depth - 1));
}

const RE2_MESSAGE = 'should be an array of strings or regular expressions using re2 syntax';

function isRefPattern(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = /^\/(.+)\/([imsx]*)$/s.exec(value);
  if (!m) return true;
  try {
    new RegExp(m[1], m[2].replace(/x/g, ''));
    return true;
  } catch {
    return false;
  }
}

/** Validates `only:`/`except:` (Entry::Policy: a list of refs, or `{refs, variables, changes, kubernetes}`). */
export function checkPolicy(errors: Errors, location: string, value: unknown): void {
  if (Array.isArray(value)) {
    if (!value.every(isRefPattern)) errors.add(location, `config ${RE2_MESSAGE}`);
    return;
  }
  if (!isPlainObject(value)) return void errors.list.push(`${location} has to be either an array of conditions or a hash`);
  if (Object.keys(value).length === 0) return errors.add(location, "config can't be blank");
  errors.unknownKeys(location, value, ['refs', 'kubernetes', 'variables', 'changes']);
  if (Array.isArray(value.variables) && !value.variables.every((v) => typeof v === 'string' && isValidExpression(v))) errors.add(location, 'variables invalid expression syntax');
  if ('refs' in value && value.refs !== null && !(Array.isArray(value.refs) && value.refs.every(isRefPattern))) errors.add(location, `refs ${RE2_MESSAGE}`);
  if ('kubernetes' in value && value.kubernetes !== null && value.kubernetes !== 'active') errors.add(location, `kubernetes unknown value: ${String(value.kubernetes)}`);
  if ('variables' in value && value.variables !== null && !isArrayOfStrings(value.variables)) errors.add(location, 'variables should be an array of strings');
  if ('changes' in value && value.changes !== null && !isArrayOfStrings(value.changes)) errors.add(location, 'changes should be an array of strings');
}
