import type { Knex } from 'knex';
import type { ProjectContext } from '../access/project-context';
import { IssueOptions, toIssue } from '../entities/issue';
import type { Issue } from '../issues/issue-row';
import { loadIssueViews } from '../issues/issue-loader';
import type { ReferenceOrigin } from '../issues/references';

/** Where a project route looks from. */
export function projectOrigin(pc: ProjectContext): ReferenceOrigin {
  return { kind: 'project', id: pc.id, namespaceId: pc.namespaceId };
}

/** Serialises issues with one batched load (lists: no `subscribed`). */
export async function presentIssues(
  db: Knex,
  rows: Issue[],
  opts: { base: string; origin: ReferenceOrigin; withLabelsDetails?: boolean; subscriber?: number | null; pc?: ProjectContext },
): Promise<Record<string, unknown>[]> {
  const fallbackProject = opts.pc ? { id: opts.pc.id, path: opts.pc.path, pathWithNamespace: opts.pc.pathWithNamespace, namespaceId: opts.pc.namespaceId } : undefined;
  const { views, urls } = await loadIssueViews(db, rows, { subscriber: opts.subscriber, fallbackProject });
  const options: IssueOptions = { base: opts.base, origin: opts.origin, withLabelsDetails: opts.withLabelsDetails, ...urls };
  return views.map((v) => toIssue(v, options));
}

/** Serialises one issue of a project route, with `subscribed` for the caller. */
export async function presentIssue(db: Knex, pc: ProjectContext, row: Issue): Promise<Record<string, unknown>> {
  const [out] = await presentIssues(db, [row], { base: pc.base, origin: projectOrigin(pc), subscriber: pc.viewer.user?.id ?? null, pc });
  return out;
}
