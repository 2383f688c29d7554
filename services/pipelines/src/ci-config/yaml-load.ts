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
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
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
  if (doc.errors.length > 0) return { ok: false, error: psychMessage(text, doc.errors[0]) };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    return { ok: false, error: `(<unknown>): ${firstLine((err as Error).message)}` };
  }
  if (depthOf(value, 0) > MAX_YAML_DEPTH) return { ok: false, error: 'The parsed YAML is too big' };
  return { ok: true, value: normaliseKeys(value) };
}

/** Line and column (1-based) of an offset, as libyaml marks report them. */
function mark(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return `at line ${line} column ${before.length - before.lastIndexOf('\n')}`;
}

/** Where the block mapping enclosing a badly indented line starts (libyaml's context mark). */
function enclosingMappingStart(text: string, offset: number): number {
  const lines = text.split('\n');
  const starts: number[] = [];
  lines.reduce((pos, line) => (starts.push(pos), pos + line.length + 1), 0);
  const indent = (l: string) => l.length - l.trimStart().length;
  const blank = (l: string) => l.trim() === '' || l.trimStart().startsWith('#');
  let row = starts.findIndex((start, i) => offset < start + lines[i].length + 1);
  if (row < 0) row = lines.length - 1;
  const own = indent(lines[row]);
  let parent = -1;
  for (let i = row - 1; i >= 0; i--) if (!blank(lines[i]) && indent(lines[i]) < own) { parent = indent(lines[i]); row = i; break; }
  if (parent < 0) return starts[row] + own;
  let first = row;
  for (let i = row - 1; i >= 0; i--) {
    if (blank(lines[i])) continue;
    if (indent(lines[i]) < parent) break;
    if (indent(lines[i]) === parent) first = i;
  }
  return starts[first] + parent;
}

/**
 * A parse error worded as Psych (libyaml) words the common ones, `(<unknown>): <problem> <context> at
 * line L column C`; other errors keep the parser's own text with the same location suffix.
 */
function psychMessage(text: string, error: { code: string; message: string; pos: [number, number] }): string {
  const at = error.pos[0];
  switch (error.code) {
    case 'BLOCK_AS_IMPLICIT_KEY': {
      const colon = text.indexOf(':', at);
      return `(<unknown>): mapping values are not allowed in this context ${mark(text, colon < 0 ? at : colon)}`;
    }
    case 'TAB_AS_INDENT':
      return `(<unknown>): found character that cannot start any token while scanning for the next token ${mark(text, text.indexOf('\t', Math.max(0, at - 1)))}`;
    case 'BAD_INDENT':
      return `(<unknown>): did not find expected key while parsing a block mapping ${mark(text, enclosingMappingStart(text, at))}`;
    default:
      if (/quote/.test(error.message)) {
        const quote = Math.max(text.lastIndexOf('"', at - 1), text.lastIndexOf("'", at - 1));
        return `(<unknown>): found unexpected end of stream while scanning a quoted scalar ${mark(text, quote < 0 ? at : quote)}`;
      }
      return `(<unknown>): ${firstLine(error.message)} ${mark(text, at)}`;
  }
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
