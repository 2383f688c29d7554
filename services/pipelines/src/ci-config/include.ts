/**
 * `include:` processing as GitLab's Gitlab::Ci::Config::External::Processor, for `local` files: each
 * included file (itself expanded) is deep-merged in order, the including file merged on top, the
 * `include` key removed. See ../shared/reference/ci-config.md §1–§2 and §6.
 */
import { deepMerge } from './deep-merge';
import { evaluateExpression, ExpressionError, isValidExpression } from './expression';
import { ConfigError } from './extends';
import { expandVariables } from './variables';
import { isPlainObject, loadYaml } from './yaml-load';

/** Deepest chain of nested includes GitLab follows. */
export const MAX_INCLUDE_NESTING = 100;
/** Most files one pipeline may include (GitLab's default `ci_max_includes`). */
export const MAX_INCLUDES = 150;

/** One included file, as lint's `includes` lists it. */
export interface IncludedFile {
  type: 'local';
  location: string;
  blob: string | null;
  raw: string | null;
  extra: Record<string, never>;
  context_project: string | null;
  context_sha: string;
}

/** What include processing needs from the pipeline. */
export interface IncludeContext {
  sha: string;
  /** Variables for `include:rules:if` and `$VAR` in locations (the pipeline's, not the YAML's). */
  variables?: Record<string, string>;
  projectPath?: string;
  projectWebUrl?: string;
  readLocal(path: string): Promise<string | null>;
}

interface State {
  ctx: IncludeContext;
  files: IncludedFile[];
  seen: Set<string>;
}

const ACCESSORS = ['local', 'remote', 'project', 'template', 'component', 'artifact'];

function toJson(value: unknown): string {
  return JSON.stringify(value);
}

/** The include list as GitLab's Mapper normalises it: strings become `{local}` or `{remote}`. */
function normalise(include: unknown): Record<string, unknown>[] {
  const list = Array.isArray(include) ? include : [include];
  return list.map((item) => {
    if (typeof item === 'string') return /^https?:\/\//.test(item) ? { remote: item } : { local: item };
    if (isPlainObject(item)) return item;
    throw new ConfigError('Include config should be a hash, a string or an array');
  });
}

/** `include: rules` (Mapper::Filter): the first matching rule decides; `when: never` or no match leaves the file out. */
async function includedByRules(state: State, spec: Record<string, unknown>): Promise<boolean> {
  if (spec.rules === undefined || spec.rules === null) return true;
  if (!Array.isArray(spec.rules) || !spec.rules.every(isPlainObject)) throw new ConfigError('include:rules config should be an array of hashes');
  for (const rule of spec.rules as Record<string, unknown>[]) {
    if (typeof rule.if === 'string' && !isValidExpression(rule.if)) throw new ConfigError('include:rules:rule if invalid expression syntax');
    if (typeof rule.if === 'string' && !ruleIf(rule.if, state.ctx.variables ?? {})) continue;
    if (rule.exists !== undefined && !(await anyExists(state, rule.exists))) continue;
    return rule.when !== 'never';
  }
  return false;
}

function ruleIf(expr: string, vars: Record<string, string>): boolean {
  try {
    return evaluateExpression(expr, vars);
  } catch (err) {
    if (err instanceof ExpressionError) throw new ConfigError(`include:rules:rule if ${err.message}`);
    throw err;
  }
}

async function anyExists(state: State, exists: unknown): Promise<boolean> {
  const paths = typeof exists === 'string' ? [exists] : Array.isArray(exists) ? exists.filter((p): p is string => typeof p === 'string') : [];
  for (const path of paths) if ((await state.ctx.readLocal(path.replace(/^\/+/, ''))) !== null) return true;
  return false;
}

function localLocation(state: State, spec: Record<string, unknown>): string {
  const accessors = ACCESSORS.filter((a) => a in spec);
  if (accessors.length !== 1) throw new ConfigError(`Include \`${toJson(spec)}\` needs to match exactly one accessor!`);
  if (accessors[0] !== 'local') throw new ConfigError(`Include \`${toJson(spec)}\` is not supported: only \`local\` files can be included`);
  if (typeof spec.local !== 'string') throw new ConfigError(`Include \`${toJson(spec)}\` needs to match exactly one accessor!`);
  return expandVariables(spec.local, state.ctx.variables ?? {}).replace(/^\/+/, '');
}

function metadata(state: State, location: string): IncludedFile {
  const { ctx } = state;
  const web = ctx.projectWebUrl ?? null;
  return {
    type: 'local',
    location,
    blob: web ? `${web}/-/blob/${ctx.sha}/${location}` : null,
    raw: web ? `${web}/-/raw/${ctx.sha}/${location}` : null,
    extra: {},
    context_project: ctx.projectPath ?? null,
    context_sha: ctx.sha,
  };
}

async function readIncluded(state: State, location: string): Promise<Record<string, unknown>> {
  if (!/\.ya?ml$/.test(location)) throw new ConfigError(`Included file \`${location}\` does not have YAML extension!`);
  const content = await state.ctx.readLocal(location);
  if (content === null) throw new ConfigError(`Local file \`${location}\` does not exist!`);
  if (content.trim() === '') throw new ConfigError(`Local file \`${location}\` is empty!`);
  const loaded = loadYaml(content);
  if (!loaded.ok || !isPlainObject(loaded.value)) throw new ConfigError(`Included file \`${location}\` does not have valid YAML syntax!`);
  return loaded.value;
}

async function expand(state: State, config: Record<string, unknown>, depth: number): Promise<Record<string, unknown>> {
  if (!('include' in config)) return config;
  if (depth > MAX_INCLUDE_NESTING) throw new ConfigError(`Maximum of ${MAX_INCLUDE_NESTING} nested includes are allowed!`);
  const specs: Record<string, unknown>[] = [];
  for (const spec of normalise(config.include)) if (await includedByRules(state, spec)) specs.push(spec);
  const locations = specs.map((spec) => localLocation(state, spec));
  const contents: Record<string, unknown>[] = [];
  for (const location of locations) {
    if (state.seen.has(location)) continue;
    state.seen.add(location);
    if (state.files.length >= MAX_INCLUDES) throw new ConfigError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
    contents.push(await readIncluded(state, location));
    state.files.push(metadata(state, location));
  }
  let merged: Record<string, unknown> = {};
  for (const content of contents) merged = deepMerge(merged, await expand(state, content, depth + 1));
  const own = { ...config };
  delete own.include;
  const result = deepMerge(merged, own);
  delete result.include;
  return result;
}

/** The configuration with its includes merged in, and the files included (in GitLab's order). */
export async function processIncludes(
  config: Record<string, unknown>,
  ctx: IncludeContext,
): Promise<{ config: Record<string, unknown>; includes: IncludedFile[] }> {
  const state: State = { ctx, files: [], seen: new Set() };
  const result = await expand(state, config, 1);
  return { config: result, includes: state.files };
}
