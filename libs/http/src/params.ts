import type { Request } from 'express';
import { ParamError } from './errors';

/**
 * Declarative parameter validation with Grape's semantics and messages, accepting what real
 * clients send: python-gitlab's `True`/`False`, arrays as JSON arrays, `x[]=` repeats or comma
 * strings, bracket keys (`not[labels]`) and flat-bracket JSON keys (`"override_params[visibility]"`).
 */

const INVALID = Symbol('invalid');
type Out<T> = T | typeof INVALID;

export class Param<T, R extends boolean = false> {
  constructor(
    readonly coerce: (v: unknown, name: string, errs: string[]) => Out<T>,
    readonly isRequired: R = false as R,
    readonly defaultValue?: T,
    readonly allowBlank = true,
    readonly check?: (v: T) => boolean,
  ) {}

  /** Missing → `<name> is missing`. */
  required(): Param<T, true> {
    return new Param<T, true>(this.coerce, true, this.defaultValue, this.allowBlank, this.check);
  }

  /** Used when the parameter is absent. */
  default(v: T): Param<T, true> {
    return new Param<T, true>(this.coerce, false as unknown as true, v, this.allowBlank, this.check) as Param<T, true>;
  }

  /** An empty string → `<name> is empty`. */
  notBlank(): Param<T, R> {
    return new Param<T, R>(this.coerce, this.isRequired, this.defaultValue, false, this.check);
  }

  /** An extra predicate; failing it → `<name> does not have a valid value`. */
  where(check: (v: T) => boolean): Param<T, R> {
    return new Param<T, R>(this.coerce, this.isRequired, this.defaultValue, this.allowBlank, check);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyParam = Param<any, boolean>;
export type Shape = Record<string, AnyParam>;
export type Infer<S extends Shape> = {
  [K in keyof S]: S[K] extends Param<infer T, infer R> ? (R extends true ? T : T | undefined) : never;
};

const TRUE = new Set(['true', 't', '1', 'yes', 'y', 'on']);
const FALSE = new Set(['false', 'f', '0', 'no', 'n', 'off']);

function scalar(v: unknown): unknown {
  return Array.isArray(v) && v.length === 1 ? v[0] : v;
}

export const p = {
  string(): Param<string> {
    return new Param((v) => {
      v = scalar(v);
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      return INVALID;
    });
  },
  integer(): Param<number> {
    return new Param((v) => {
      v = scalar(v);
      if (typeof v === 'number' && Number.isInteger(v)) return v;
      if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) {
        const n = Number(v);
        return Number.isSafeInteger(n) ? n : INVALID;
      }
      return INVALID;
    });
  },
  number(): Param<number> {
    return new Param((v) => {
      v = scalar(v);
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      return Number.isFinite(n) ? n : INVALID;
    });
  },
  boolean(): Param<boolean> {
    return new Param((v) => {
      v = scalar(v);
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string') {
        const s = v.trim().toLowerCase();
        if (TRUE.has(s)) return true;
        if (FALSE.has(s)) return false;
      }
      if (v === 1) return true;
      if (v === 0) return false;
      return INVALID;
    });
  },
  /** One of fixed values; anything else → `<name> does not have a valid value`. */
  enum<T extends string>(values: readonly T[], caseInsensitive = false): Param<T> {
    return new Param((v, name, errs) => {
      v = scalar(v);
      if (typeof v !== 'string' && typeof v !== 'number') return INVALID;
      const s = String(v);
      const hit = values.find((x) => (caseInsensitive ? x.toLowerCase() === s.toLowerCase() : x === s));
      if (hit === undefined) {
        errs.push(`${name} does not have a valid value`);
        return INVALID;
      }
      return hit;
    });
  },
  /** ISO 8601 date-time. */
  datetime(): Param<Date> {
    return new Param((v) => {
      v = scalar(v);
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v)) return INVALID;
      const d = new Date(v);
      return Number.isNaN(d.getTime()) ? INVALID : d;
    });
  },
  /** `YYYY-MM-DD`, kept as the string. */
  date(): Param<string> {
    return new Param((v) => {
      v = scalar(v);
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return INVALID;
      return Number.isNaN(new Date(v + 'T00:00:00Z').getTime()) ? INVALID : v;
    });
  },
  /** An array of `inner`: a JSON array, repeated `x[]=`, or a comma-separated string. */
  array<T>(inner: Param<T, boolean>): Param<T[]> {
    return new Param((v, name, errs) => {
      let items: unknown[];
      if (Array.isArray(v)) items = v;
      else if (typeof v === 'string') items = v === '' ? [] : v.split(',').map((s) => s.trim());
      else if (typeof v === 'number') items = [v];
      else if (v && typeof v === 'object') items = Object.values(v as Record<string, unknown>);
      else return INVALID;
      const out: T[] = [];
      for (const item of items) {
        const c = inner.coerce(item, name, errs);
        if (c === INVALID) return INVALID;
        out.push(c);
      }
      return out;
    });
  },
  /** A list of strings from an array or a comma-separated string (GitLab's labels). */
  list(): Param<string[]> {
    return p.array(p.string());
  },
  /** A nested hash of known keys (unknown keys dropped). */
  hash<S extends Shape>(shape: S): Param<Infer<S>> {
    return new Param((v, name, errs) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return INVALID;
      return parseShape(shape, v as Record<string, unknown>, errs, `${name}[`, ']');
    });
  },
  /** Any string-keyed hash of strings (custom_attributes[k]=v). */
  record(): Param<Record<string, string>> {
    return new Param((v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return INVALID;
      const out: Record<string, string> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = String(x);
      return out;
    });
  },
  /** The first of several forms that accepts the value (e.g. an integer or `None`/`Any`). */
  oneOf<A, B>(a: Param<A, boolean>, b: Param<B, boolean>): Param<A | B> {
    return new Param((v, name) => {
      const scratch: string[] = [];
      const x = a.coerce(v, name, scratch);
      if (x !== INVALID) return x;
      const y = b.coerce(v, name, scratch);
      return y;
    });
  },
  /** Anything, unchanged. */
  any(): Param<unknown> {
    return new Param((v) => v);
  },
};

function parseShape<S extends Shape>(shape: S, src: Record<string, unknown>, errs: string[], pre = '', post = ''): Infer<S> {
  const out: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [key, param] of Object.entries(shape)) {
    const name = `${pre}${key}${post}`;
    const raw = src[key];
    if (raw === undefined || raw === null) {
      if (param.isRequired) missing.push(name);
      else if (param.defaultValue !== undefined) out[key] = param.defaultValue;
      else if (raw === null) out[key] = null;
      continue;
    }
    if (!param.allowBlank && (raw === '' || (Array.isArray(raw) && raw.length === 0))) {
      errs.push(`${name} is empty`);
      continue;
    }
    const before = errs.length;
    const v = param.coerce(raw, name, errs);
    if (v === INVALID) {
      if (errs.length === before) errs.push(`${name} is invalid`);
      continue;
    }
    if (param.check && !param.check(v)) {
      errs.push(`${name} does not have a valid value`);
      continue;
    }
    out[key] = v;
  }
  if (missing.length) errs.unshift(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`);
  return out as Infer<S>;
}

/** Expands flat bracket keys (`"a[b]": 1` → `{a: {b: 1}}`, `"x[]": 1` → `{x: [1]}`) in a body. */
export function expandBracketKeys(src: Record<string, unknown>): Record<string, unknown> {
  let needs = false;
  for (const k of Object.keys(src)) if (k.includes('[')) needs = true;
  if (!needs) return src;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(src)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
    if (!m) {
      out[key] = value;
      continue;
    }
    const path = [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1])];
    let node = out as Record<string, unknown>;
    for (let i = 0; i < path.length - 1; i++) {
      const seg = path[i];
      const nextIsPush = path[i + 1] === '';
      if (nextIsPush) {
        const arr = (Array.isArray(node[seg]) ? node[seg] : (node[seg] = [])) as unknown[];
        arr.push(...(Array.isArray(value) ? value : [value]));
        node = null as unknown as Record<string, unknown>;
        break;
      }
      if (!node[seg] || typeof node[seg] !== 'object') node[seg] = {};
      node = node[seg] as Record<string, unknown>;
    }
    if (node) node[path[path.length - 1]] = value;
  }
  return out;
}

/** Query, then body (body wins), with bracket keys expanded, plus route params (they win). */
export function requestInput(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...expandBracketKeys(body), ...req.params };
}

export interface Rules {
  /** At most one of these may be given: `a, b are mutually exclusive`. */
  mutuallyExclusive?: string[][];
  /** At least one of these must be given: `a, b are missing, at least one parameter must be provided`. */
  atLeastOneOf?: string[][];
  /** All or none of these: `a, b provide all or none of parameters`. */
  allOrNone?: string[][];
  /** Exactly one of these: more → `a, b are mutually exclusive`; none → `a, b are missing, exactly one parameter must be provided`. */
  exactlyOneOf?: string[][];
}

/** A compiled schema: `.parse(req)` returns typed input or throws ParamError with Grape's message. */
export interface Schema<S extends Shape> {
  parse(req: Request): Infer<S>;
  parseObject(src: Record<string, unknown>): Infer<S>;
}

/** Declares a route's parameters. */
export function params<S extends Shape>(shape: S, rules: Rules = {}): Schema<S> {
  // Grape's group rules look at which keys were sent: `labels=` (blank) counts as given
  const present = (src: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(src, k) && src[k] !== undefined;
  const parseObject = (src: Record<string, unknown>) => {
    const errs: string[] = [];
    const out = parseShape(shape, src, errs);
    for (const group of rules.mutuallyExclusive ?? []) {
      if (group.filter((k) => present(src, k)).length > 1) errs.push(`${group.join(', ')} are mutually exclusive`);
    }
    for (const group of rules.atLeastOneOf ?? []) {
      if (!group.some((k) => present(src, k))) errs.push(`${group.join(', ')} are missing, at least one parameter must be provided`);
    }
    for (const group of rules.allOrNone ?? []) {
      const n = group.filter((k) => present(src, k)).length;
      if (n > 0 && n < group.length) errs.push(`${group.join(', ')} provide all or none of parameters`);
    }
    for (const group of rules.exactlyOneOf ?? []) {
      const n = group.filter((k) => present(src, k)).length;
      if (n > 1) errs.push(`${group.join(', ')} are mutually exclusive`);
      if (n === 0) errs.push(`${group.join(', ')} are missing, exactly one parameter must be provided`);
    }
    if (errs.length) throw new ParamError(errs.join(', '));
    return out;
  };
  return { parseObject, parse: (req) => parseObject(requestInput(req)) };
}
