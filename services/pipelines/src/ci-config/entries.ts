/**
 * Validators for the small entries of a CI configuration, each returning GitLab's message (without the
 * location prefix) or null, as GitLab's Gitlab::Ci::Config::Entry classes word them. Pure.
 */
import { parseDuration } from './duration';
import { isValidExpression } from './expression';
import { isPlainObject } from './yaml-load';

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

/** A variables mapping's values as strings; null when the mapping is not one GitLab accepts. */
export function variablesValue(value: unknown, allowHash: readonly string[]): Record<string, string> | null {
  if (!isPlainObject(value)) return null;
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (typeof raw === 'string' || typeof raw === 'number') out[key] = String(raw);
    else if (isPlainObject(raw) && Object.keys(raw).every((k) => allowHash.includes(k)) && 'value' in raw && (typeof raw.value === 'string' || typeof raw.value === 'number')) out[key] = String(raw.value);
    else if (isPlainObject(raw) && allowHash.includes('description') && !('value' in raw) && Object.keys(raw).every((k) => allowHash.includes(k))) out[key] = '';
    else return null;
  }
  return out;
}

/** Validates `variables:`; returns the names-to-values map, or null after recording the error. */
export function checkVariables(errors: Errors, location: string, value: unknown, allowHash: readonly string[]): Record<string, string> | null {
  const vars = variablesValue(value, allowHash);
  if (vars === null) errors.add(location, 'config should be a hash of key value pairs');
  return vars;
}

/** Validates `image:` (a string or `{name, entrypoint, …}`). */
export function checkImage(errors: Errors, location: string, value: unknown): void {
  if (typeof value === 'string') return;
  if (!isPlainObject(value)) return errors.add(location, 'config should be a hash or a string');
  errors.unknownKeys(location, value, ['name', 'entrypoint', 'docker', 'pull_policy', 'kubernetes']);
  if (typeof value.name !== 'string' || value.name === '') errors.add(location, "config name can't be blank");
  if ('entrypoint' in value && !isArrayOfStrings(value.entrypoint)) errors.add(location, 'entrypoint config should be an array of strings');
}

/** Validates `services:` (a list of strings or `{name, alias, entrypoint, command}`). */
export function checkServices(errors: Errors, location: string, value: unknown): void {
  if (!Array.isArray(value)) return errors.add(location, 'config should be a array');
  value.forEach((service) => {
    const at = `${location}:service`;
    if (typeof service === 'string') return;
    if (!isPlainObject(service)) return errors.add(at, 'config should be a hash or a string');
    errors.unknownKeys(at, service, ['name', 'entrypoint', 'command', 'alias', 'ports', 'variables', 'pull_policy', 'docker', 'kubernetes']);
    if (typeof service.name !== 'string' || service.name === '') errors.add(at, "config name can't be blank");
  });
}

/** Validates `allow_failure:` (a boolean or `{exit_codes: int | [int]}`). */
export function checkAllowFailure(errors: Errors, location: string, value: unknown): void {
  if (typeof value === 'boolean') return;
  if (!isPlainObject(value)) return errors.add(location, 'config should be a hash or a boolean value');
  errors.unknownKeys(location, value, ['exit_codes']);
  const codes = value.exit_codes;
  const ok = Number.isInteger(codes) || (Array.isArray(codes) && codes.length > 0 && codes.every(Number.isInteger));
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

/** Validates one `rules:` list (job or workflow). */
export function checkRules(errors: Errors, location: string, value: unknown, allowedWhen: readonly string[], allowedKeys: readonly string[]): void {
  if (!Array.isArray(value) || !value.every((r) => isPlainObject(r) || Array.isArray(r))) return errors.add(location, 'config should be an array of hashes');
  for (const rule of value.flat(10)) {
    const at = `${location}:rule`;
    if (!isPlainObject(rule)) {
      errors.add(at, 'config should be a hash');
      continue;
    }
    errors.unknownKeys(at, rule, allowedKeys);
    if ('if' in rule) {
      if (typeof rule.if !== 'string') errors.add(at, 'if should be a string');
      else if (!isValidExpression(rule.if)) errors.add(at, 'if invalid expression syntax');
    }
    if ('when' in rule && !allowedWhen.includes(rule.when as string)) errors.add(at, `when should be one of: ${allowedWhen.join(', ')}`);
    if ('start_in' in rule && rule.when !== 'delayed') errors.add(at, 'start_in must be blank');
    if (rule.when === 'delayed' && parseDuration(rule.start_in) === null) errors.add(at, 'start_in should be a duration');
    if ('allow_failure' in rule && typeof rule.allow_failure !== 'boolean') errors.add(at, 'allow_failure should be a boolean value');
    if ('variables' in rule) checkVariables(errors, `${at}:variables`, rule.variables, []);
  }
}

/** Validates `only:`/`except:` (a list of refs, or `{refs, variables, changes, kubernetes}`). */
export function checkPolicy(errors: Errors, location: string, value: unknown): void {
  if (typeof value === 'string' || isArrayOfStrings(value)) return;
  if (!isPlainObject(value)) return errors.add(location, 'has to be either an array of conditions or a hash');
  errors.unknownKeys(location, value, ['refs', 'kubernetes', 'variables', 'changes']);
  if ('refs' in value && !isArrayOfStrings(value.refs) && typeof value.refs !== 'string') errors.add(`${location}:refs`, 'config should be an array of strings or regular expressions');
  if ('variables' in value) {
    if (!isArrayOfStrings(value.variables)) errors.add(`${location}:variables`, 'config should be an array of valid expressions');
    else if (!value.variables.every(isValidExpression)) errors.add(`${location}:variables`, 'config should be an array of valid expressions');
  }
  if ('kubernetes' in value && value.kubernetes !== 'active') errors.add(`${location}:kubernetes`, 'config unknown value: ' + String(value.kubernetes));
}
