/**
 * Trigger jobs (GitLab's Entry::Bridge): validated and listed by lint like GitLab; they start a
 * downstream pipeline, which this service does not run, so pipeline seeding leaves them out. Pure.
 */
import { checkPolicy, checkRules, checkVariables, Errors, isArrayOfStrings, isNestedArrayOfHashes } from './entries';
import { policyOf, RULE_KEYS, RULE_WHEN } from './job';
import type { JobConfig } from './model';
import { isPlainObject } from './yaml-load';

/** Keys a trigger job may have (Bridge::ALLOWED_KEYS + Processable::PROCESSABLE_ALLOWED_KEYS). */
export const BRIDGE_KEYS = ['trigger', 'parallel', 'extends', 'stage', 'only', 'except', 'rules', 'variables', 'inherit', 'allow_failure', 'when', 'needs', 'resource_group', 'environment'];
const BRIDGE_WHEN = ['on_success', 'on_failure', 'always', 'manual'];

/** A visible trigger job: a mapping with `trigger` and neither `script` nor `run`. */
export function isBridge(name: string, value: unknown): value is Record<string, unknown> {
  return !name.startsWith('.') && isPlainObject(value) && 'trigger' in value && !('script' in value) && !('run' in value);
}

function checkTrigger(errors: Errors, at: string, value: unknown): void {
  if (typeof value === 'string') return;
  if (!isPlainObject(value)) return errors.add(at, 'config should be a hash or a string');
  if ('project' in value) errors.unknownKeys(at, value, ['project', 'branch', 'strategy', 'forward']);
  else if ('include' in value) errors.unknownKeys(at, value, ['include', 'strategy', 'forward']);
  else errors.add(at, 'config should contain either a project or an include');
}

/** Validates one trigger job; returns it as a JobConfig marked `bridge`, or null when it has errors. */
export function buildBridge(errors: Errors, name: string, job: Record<string, unknown>): JobConfig | null {
  const before = errors.list.length;
  const at = `jobs:${name}`;
  errors.unknownKeys(at, job, BRIDGE_KEYS);
  if (job.when !== undefined && job.when !== null && !BRIDGE_WHEN.includes(String(job.when))) errors.add(at, 'when should be on_success, on_failure or always');
  if (job.allow_failure !== undefined && typeof job.allow_failure !== 'boolean') errors.add(at, 'allow failure should be a boolean value');
  if (job.rules !== undefined && job.rules !== null && !isNestedArrayOfHashes(job.rules)) errors.add(at, 'rules should be an array containing hashes and arrays of hashes');
  checkTrigger(errors, `${at}:trigger`, job.trigger);
  if (job.stage !== undefined && typeof job.stage !== 'string') errors.add(`${at}:stage`, 'config should be a string');
  if (job.only !== undefined && job.only !== null) checkPolicy(errors, `${at}:only`, job.only);
  if (job.except !== undefined && job.except !== null) checkPolicy(errors, `${at}:except`, job.except);
  if (job.rules !== undefined && job.rules !== null) checkRules(errors, `${at}:rules`, job.rules, RULE_WHEN, RULE_KEYS);
  if (job.variables !== undefined) checkVariables(errors, `${at}:variables`, job.variables, ['value', 'expand']);
  if (errors.list.length > before) return null;
  return {
    name, stage: typeof job.stage === 'string' ? job.stage : 'test', script: [], beforeScript: null, afterScript: null,
    image: null, services: null, tags: null, when: typeof job.when === 'string' ? job.when : 'on_success', startIn: null,
    allowFailure: typeof job.allow_failure === 'boolean' ? job.allow_failure : null,
    needs: Array.isArray(job.needs) ? job.needs.filter((n) => typeof n === 'string').map((job) => ({ job, artifacts: true, optional: false })) : null,
    rules: Array.isArray(job.rules) ? (job.rules.flat(10) as Record<string, unknown>[]) : null,
    only: policyOf(job.only, true), except: policyOf(job.except, false), retry: null, timeout: null, artifacts: null,
    variables: isPlainObject(job.variables) ? Object.fromEntries(Object.entries(job.variables).map(([k, v]) => [k, String(isPlainObject(v) ? v.value : v)])) : {},
    inheritVariables: true, dependencies: isArrayOfStrings(job.dependencies) ? job.dependencies : null,
    environment: job.environment ?? null, parallel: null, raw: job, bridge: true,
  };
}
