/**
 * `extends:` resolution as GitLab's Gitlab::Ci::Config::Extendable: bases resolved recursively,
 * deep-merged left to right, the entry's own keys merged on top. Pure.
 * See ../shared/reference/ci-config.md §6.
 */
import { deepMerge } from './deep-merge';
import { isPlainObject, setOwn } from './yaml-load';

/** Deepest chain of `extends` GitLab follows. */
export const MAX_EXTENDS_NESTING = 10;

/** A configuration error with GitLab's message. */
export class ConfigError extends Error {}

function extendsKeys(value: Record<string, unknown>): string[] {
  const raw = value.extends;
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((k) => (k === null || k === undefined ? '' : String(k)));
}

function extendOne(config: Record<string, unknown>, key: string, ancestors: string[], done: Set<string>): Record<string, unknown> {
  const value = config[key] as Record<string, unknown>;
  if (done.has(key) || !('extends' in value)) return value;
  const keys = extendsKeys(value);
  const unknown = keys.filter((k) => !Object.prototype.hasOwnProperty.call(config, k));
  if (unknown.length) throw new ConfigError(`${key}: unknown keys in \`extends\` (${unknown.join(', ')})`);
  const invalid = keys.filter((k) => !isPlainObject(config[k]));
  if (invalid.length) throw new ConfigError(`${key}: invalid base hashes in \`extends\` (${invalid.join(', ')})`);
  if (ancestors.length + 1 > MAX_EXTENDS_NESTING) throw new ConfigError(`${key}: nesting too deep in \`extends\``);
  if (ancestors.includes(key)) throw new ConfigError(`${key}: circular dependency detected in \`extends\``);
  let merged: Record<string, unknown> = {};
  for (const base of keys) merged = deepMerge(merged, extendOne(config, base, [...ancestors, key], done));
  const result = deepMerge(merged, value);
  setOwn(config, key, result);
  done.add(key);
  return result;
}

/**
 * Resolves every top-level entry that has `extends`; returns a new configuration (the `extends` keys
 * stay, as GitLab keeps them). Throws ConfigError with GitLab's message.
 */
export function resolveExtends(input: Record<string, unknown>): Record<string, unknown> {
  const config = { ...input };
  const done = new Set<string>();
  for (const key of Object.keys(config)) {
    if (isPlainObject(config[key])) extendOne(config, key, [], done);
  }
  return config;
}
