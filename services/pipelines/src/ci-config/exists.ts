/**
 * `rules:exists` (job, workflow and include rules): true when any listed file is in the pipeline's
 * commit. Files are probed by exact path through `readLocal`; glob patterns cannot be listed and
 * never match. Probed once per compile, before the synchronous rule evaluation.
 */
import type { ConfigModel } from './model';
import { isPlainObject } from './yaml-load';

/** The paths a rule's `exists` names (`exists: path`, `[paths]` or `{paths: [...]}`). */
export function existsPaths(exists: unknown): string[] {
  const raw = isPlainObject(exists) ? exists.paths : exists;
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  return list.filter((p): p is string => typeof p === 'string').map((p) => p.replace(/^\/+/, ''));
}

/** True when the rule has no `exists`, or one of its files is in `existing`. */
export function existsMatches(rule: Record<string, unknown>, existing: ReadonlySet<string>): boolean {
  if (rule.exists === undefined || rule.exists === null) return true;
  return existsPaths(rule.exists).some((p) => existing.has(p));
}

/** Which of the exact paths named by the model's rules exist in the commit. */
export async function probeExists(model: ConfigModel, readLocal: (path: string) => Promise<string | null>): Promise<Set<string>> {
  const rules = [...(model.workflowRules ?? []), ...model.jobs.flatMap((j) => j.rules ?? [])];
  const paths = new Set(rules.flatMap((r) => existsPaths(r.exists)).filter((p) => !/[*?[{]/.test(p)));
  const existing = new Set<string>();
  for (const path of [...paths].slice(0, 1000)) if ((await readLocal(path)) !== null) existing.add(path);
  return existing;
}
