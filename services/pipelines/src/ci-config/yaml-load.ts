/**
 * Loading `.gitlab-ci.yml` text: YAML 1.1-ish safe load with aliases and GitLab's `!reference` tag,
 * and the loader's errors (GitLab's lib/gitlab/config/loader/yaml.rb, lib/gitlab/ci/config/yaml/tags/).
 * See ../shared/reference/ci-config.md §1.
 */
import { parseDocument, type ScalarTag, type CollectionTag, YAMLSeq } from 'yaml';

/** A `!reference [key, subkey, …]` waiting to be resolved against the whole configuration. */
export class ReferenceTag {
  constructor(readonly path: unknown) {}

  /** A sequence of one or more strings, the only form GitLab accepts. */
  isValid(): this is { path: string[] } {
    return Array.isArray(this.path) && this.path.length > 0 && this.path.every((p) => typeof p === 'string');
  }

  /** GitLab's rendering of the tag in its errors: `!reference [".x", "script"]`. */
  toString(): string {
    return `!reference ${rubyInspect(this.path)}`;
  }
}

/** Ruby's `inspect` of a scalar, as GitLab's messages show sequences. */
export function rubyInspect(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return `[${value.map(rubyInspect).join(', ')}]`;
  return String(value);
}

/** Largest accepted configuration text (GitLab's default `max_yaml_size_bytes`). */
export const MAX_YAML_BYTES = 1024 * 1024;
/** Deepest accepted nesting (GitLab's default `max_yaml_depth`). */
export const MAX_YAML_DEPTH = 100;

const referenceTag: CollectionTag = {
  tag: '!reference',
  collection: 'seq',
  resolve(value: unknown) {
    const seq = value as YAMLSeq;
    return new ReferenceTag(seq.items.map((item) => (item && typeof item === 'object' && 'toJSON' in item ? (item as { toJSON(): unknown }).toJSON() : item)));
  },
  identify: (v: unknown) => v instanceof ReferenceTag,
} as unknown as CollectionTag;

const referenceScalarTag: ScalarTag = {
  tag: '!reference',
  resolve: (str: string) => new ReferenceTag(str),
  identify: (v) => v instanceof ReferenceTag,
};

/** Psych's booleans: YAML 1.1 words, but not `y`/`n` (those stay strings, as Ruby loads them). */
const psychBool: ScalarTag = {
  tag: 'tag:yaml.org,2002:bool',
  default: true,
  test: /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON|no|No|NO|false|False|FALSE|off|Off|OFF)$/,
  resolve: (str: string) => ['yes', 'true', 'on'].includes(str.toLowerCase()),
};

/** What loading gives: the value, or GitLab's loader error. */
export type LoadResult = { ok: true; value: unknown } | { ok: false; error: string };

function depthOf(value: unknown, depth: number): number {
  if (depth > MAX_YAML_DEPTH) return depth;
  if (Array.isArray(value)) return value.reduce<number>((d, v) => Math.max(d, depthOf(v, depth + 1)), depth);
  if (isPlainObject(value)) return Object.values(value).reduce<number>((d, v) => Math.max(d, depthOf(v, depth + 1)), depth);
  return depth;
}

/** Sets an own property, even one named `__proto__` (plain assignment would replace the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** True for a mapping loaded from YAML (not an array, not a tag). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ReferenceTag);
}

/**
 * Parses YAML text safely (no custom types but `!reference`; aliases allowed, bounded) and checks
 * GitLab's size and depth limits. Does not check that the root is a mapping.
 */
export function loadYaml(text: string): LoadResult {
  if (Buffer.byteLength(text, 'utf8') > MAX_YAML_BYTES) return { ok: false, error: 'The parsed YAML is too big' };
  let doc;
  try {
    doc = parseDocument(text, {
      version: '1.1',
      customTags: (tags) => [psychBool, ...tags.filter((t) => (t as ScalarTag).tag !== 'tag:yaml.org,2002:bool'), referenceTag, referenceScalarTag],
      uniqueKeys: false,
      prettyErrors: false,
    });
  } catch (err) {
    return { ok: false, error: `(<unknown>): ${(err as Error).message}` };
  }
  if (doc.errors.length > 0) return { ok: false, error: `(<unknown>): ${firstLine(doc.errors[0].message)}` };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    return { ok: false, error: `(<unknown>): ${firstLine((err as Error).message)}` };
  }
  if (depthOf(value, 0) > MAX_YAML_DEPTH) return { ok: false, error: 'The parsed YAML is too big' };
  return { ok: true, value: normaliseKeys(value) };
}

function firstLine(message: string): string {
  return message.split('\n')[0];
}

/** YAML keys become strings as GitLab's symbolised hash keys print (`1:` is the key "1"). */
function normaliseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseKeys);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) setOwn(out, String(k), normaliseKeys(v));
    return out;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, normaliseKeys(v));
    return out;
  }
  return value;
}
