/**
 * `!reference [key, subkey, …]` resolution as GitLab's Gitlab::Ci::Config::Yaml::Tags::Resolver: each
 * tag is replaced by the value found at its path in the (already extended) configuration, itself
 * resolved first. Pure. See ../shared/reference/ci-config.md §6.
 */
import { ConfigError } from './extends';
import { isPlainObject, ReferenceTag, setOwn } from './yaml-load';

function dig(config: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = config;
  for (const key of path) {
    if (Array.isArray(node)) {
      node = undefined;
      break;
    }
    if (!isPlainObject(node)) return undefined;
    node = Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
  }
  return node;
}

function resolveNode(root: Record<string, unknown>, node: unknown, chain: ReferenceTag[]): unknown {
  if (node instanceof ReferenceTag) {
    if (!node.isValid()) throw new ConfigError(`${node} is not valid`);
    if (chain.some((t) => t === node || JSON.stringify(t.path) === JSON.stringify(node.path))) {
      throw new ConfigError(`${node} is part of a circular chain`);
    }
    const found = dig(root, node.path);
    const value = resolveNode(root, found, [...chain, node]);
    if (value === undefined || value === null || value === false) throw new ConfigError(`${node} could not be found`);
    return value;
  }
  if (Array.isArray(node)) return node.map((item) => resolveNode(root, item, chain));
  if (isPlainObject(node)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) setOwn(out, k, resolveNode(root, v, chain));
    return out;
  }
  return node;
}

/** A new configuration with every `!reference` replaced; throws ConfigError with GitLab's message. */
export function resolveReferences(config: Record<string, unknown>): Record<string, unknown> {
  return resolveNode(config, config, []) as Record<string, unknown>;
}
