import type { Viewer } from '../../access/viewer';
import { IssueFilters, isAny, isNone, NegatedFilters } from './filters';
import type { ResolvedNames } from './types';

/**
 * The rows of `issue_filter_keys` a list can be read from instead of `issues`: kind `l` (label)
 * or `a` (assignee), and the key ids, each issue carrying at most one of them.
 */
export interface FilterKey {
  kind: 'l' | 'a';
  ids: number[];
}

/**
 * Filters whose conditions read only what `issue_filter_keys` copies from the issue (id, project,
 * state, creation time, confidentiality, author, milestone, label and assignee ids) or the
 * joined project; any other filter present keeps the list on `issues`.
 */
const KEYED: ReadonlySet<string> = new Set([
  'scope', 'state', 'createdAfter', 'createdBefore', 'authorId', 'authorUsername', 'assigneeId', 'assigneeUsername',
  'milestone', 'milestoneId', 'labels', 'myReactionEmoji', 'confidential', 'nonArchived', 'not', 'orderBy', 'sort',
]);
const KEYED_NOT: ReadonlySet<string> = new Set([
  'labels', 'milestone', 'milestoneId', 'authorId', 'authorUsername', 'assigneeId', 'assigneeUsername', 'myReactionEmoji',
]);

const present = (v: unknown) => v !== undefined && !(Array.isArray(v) && v.length === 0);

function covered(f: IssueFilters): boolean {
  for (const [k, v] of Object.entries(f)) if (present(v) && !KEYED.has(k)) return false;
  for (const [k, v] of Object.entries(f.not ?? ({} as NegatedFilters))) if (present(v) && !KEYED_NOT.has(k)) return false;
  return true;
}

const named = (v: string) => !isNone(v) && !isAny(v);

/**
 * The key a list with these filters can be counted from: a label title whose ids are one label,
 * or project labels only (titles are unique within a project and an issue carries only its own
 * project's labels, so no issue carries two of them); else an assignee by id, by name or
 * `assigned_to_me`. Null when no filter names one (a `None`/`Any` label filter names none), or
 * another filter reads a column the keys do not copy.
 */
export function filterKey(f: IssueFilters, viewer: Viewer, names: ResolvedNames | undefined): FilterKey | null {
  if (!covered(f)) return null;
  const labels = f.labels ?? [];
  if (names && labels.every(named)) {
    for (const title of labels) {
      const ids = names.labels.get(title) ?? [];
      if (ids.length === 1 || (ids.length > 1 && ids.every((id) => names.projectLabelIds.has(id)))) return { kind: 'l', ids };
    }
  }
  if (typeof f.assigneeId === 'number') return { kind: 'a', ids: [f.assigneeId] };
  const [first] = f.assigneeUsername ?? [];
  const user = names && first !== undefined && named(first) ? names.users.get(first.toLowerCase()) : undefined;
  if (f.assigneeId === undefined && user !== undefined) return { kind: 'a', ids: [user] };
  if (f.scope === 'assigned_to_me' && viewer.user) return { kind: 'a', ids: [viewer.user.id] };
  return null;
}
