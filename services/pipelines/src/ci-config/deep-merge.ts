/**
 * GitLab's `Hash#deep_merge` as `include` and `extends` use it: mappings merge key by key, the right
 * side wins; arrays and scalars are replaced whole. Pure.
 */
import { isPlainObject, setOwn } from './yaml-load';

/** A new mapping: `base` with `over` deep-merged on top. Neither argument is modified. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    setOwn(out, key, isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value);
  }
  return out;
}
