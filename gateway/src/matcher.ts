import type { CredentialKind, RouteDef } from './routes';

/** A route as matched: its entry, its defaults filled in, and which segment (if any) holds the `:id` to resolve. */
export interface CompiledRoute extends RouteDef {
  credentials: CredentialKind;
  /** Index of the `:id` segment in the request's segments, or -1. */
  idIndex: number;
  /** Anonymous callers get 401 before anything is resolved. */
  authenticated: boolean;
}

interface Node {
  literal: Map<string, Node>;
  prefixes: Array<[string, Node]>;
  param?: Node;
  /** Route whose pattern ends exactly here. */
  exact?: CompiledRoute;
  /** Route whose pattern ends here with `/*` (zero or more further segments). */
  rest?: CompiledRoute;
}

const node = (): Node => ({ literal: new Map(), prefixes: [] });

/**
 * A segment trie compiled once from the routing table. Matching walks the request's segments
 * (a couple of Map lookups each), backtracking only where a literal branch dead-ends.
 */
export class RouteMatcher {
  private readonly root = node();

  constructor(routes: RouteDef[]) {
    for (const r of routes) this.add(r);
  }

  private add(def: RouteDef): void {
    const parts = def.pattern.split('/').filter(Boolean);
    const wildcard = parts[parts.length - 1] === '*';
    if (wildcard) parts.pop();
    const route: CompiledRoute = { ...def, credentials: def.credentials ?? 'api', idIndex: parts.indexOf(':id'), authenticated: def.authenticated ?? false };
    let n = this.root;
    for (const part of parts) n = this.child(n, part);
    const slot = wildcard ? 'rest' : 'exact';
    if (n[slot]) throw new Error(`duplicate route pattern ${def.pattern}`);
    n[slot] = route;
  }

  private child(n: Node, part: string): Node {
    if (part.startsWith(':')) return (n.param ??= node());
    if (part.endsWith('*')) {
      const prefix = part.slice(0, -1);
      let entry = n.prefixes.find(([p]) => p === prefix);
      if (!entry) n.prefixes.push((entry = [prefix, node()]));
      return entry[1];
    }
    let c = n.literal.get(part);
    if (!c) n.literal.set(part, (c = node()));
    return c;
  }

  /** The route for these path segments (already split, relative to /api/v4), or undefined. */
  match(segments: string[]): CompiledRoute | undefined {
    return walk(this.root, segments, 0);
  }
}

function walk(n: Node, segs: string[], i: number): CompiledRoute | undefined {
  if (i === segs.length) return n.exact ?? n.rest;
  const seg = segs[i];
  const lit = n.literal.get(seg);
  let found = lit && walk(lit, segs, i + 1);
  if (found) return found;
  for (const [prefix, child] of n.prefixes) {
    if (seg.startsWith(prefix) && (found = walk(child, segs, i + 1))) return found;
  }
  if (n.param && (found = walk(n.param, segs, i + 1))) return found;
  return n.rest;
}
