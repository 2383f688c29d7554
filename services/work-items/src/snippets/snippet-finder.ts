import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import type { ProjectContext } from '../access/project-context';
import { findSnippet, Snippet, VISIBILITY_LEVELS } from './snippet-store';

type Db = Knex | Knex.Transaction;

/** Who looks at a project's snippets: the signed-in user (null when anonymous) and their level on the project. */
export interface SnippetViewer {
  userId: number | null;
  /** The effective level on the project (administrators count as Owner); 0 for none. */
  projectLevel: number;
}

/** The snippet viewer of a project request. */
export function snippetViewer(pc: ProjectContext): SnippetViewer {
  return { userId: pc.viewer.user?.id ?? null, projectLevel: pc.level };
}

/**
 * The visibility levels `viewer` may see in a project, null meaning all (GitLab's
 * `Snippet.for_project_with_user`): members see every snippet; others the public ones, and the
 * internal ones too when signed in.
 */
export function visibleLevels(viewer: SnippetViewer): number[] | null {
  if (viewer.projectLevel >= AccessLevel.GUEST) return null;
  return viewer.userId ? [VISIBILITY_LEVELS.public, VISIBILITY_LEVELS.internal] : [VISIBILITY_LEVELS.public];
}

/** Whether `viewer` may see `snippet` (`read_snippet` through the project's snippet list). */
export function canReadSnippet(viewer: SnippetViewer, snippet: Snippet): boolean {
  const levels = visibleLevels(viewer);
  return !levels || levels.includes(VISIBILITY_LEVELS[snippet.visibility]);
}

/** GitLab's `SnippetsFinder` for one project: the snippets `viewer` may see, newest id first (`SnippetRow`s). */
export function visibleSnippets(db: Db, projectId: number, viewer: SnippetViewer): Knex.QueryBuilder {
  const q = db('snippets').where({ project_id: projectId });
  const levels = visibleLevels(viewer);
  if (levels) q.whereIn('visibility_level', levels);
  return q.orderBy('id', 'desc');
}

/**
 * A snippet lookup: found, or why not. `missing`: the project has no such snippet (GitLab's
 * `find` → `404 Not found`); `hidden`: it exists but the viewer may not read it (callers answer
 * as their GitLab route does: `404 Snippet Not Found`, `404 Award Emoji Not Found`…).
 */
export type SnippetLookup = { found: true; snippet: Snippet } | { found: false; reason: 'missing' | 'hidden' };

/** The snippet `snippetId` of `projectId` when `viewer` may read it; otherwise why not. */
export async function findVisible(db: Db, projectId: number, snippetId: number, viewer: SnippetViewer): Promise<SnippetLookup> {
  const snippet = await findSnippet(db, projectId, snippetId);
  if (!snippet) return { found: false, reason: 'missing' };
  if (!canReadSnippet(viewer, snippet)) return { found: false, reason: 'hidden' };
  return { found: true, snippet };
}

/** The visible snippet, or `notFound()` thrown when it is missing or hidden (GitLab's scoped finders make both one 404). */
export async function loadVisible(db: Db, projectId: number, snippetId: number, viewer: SnippetViewer, notFound: () => Error): Promise<Snippet> {
  const lookup = await findVisible(db, projectId, snippetId, viewer);
  if (!lookup.found) throw notFound();
  return lookup.snippet;
}
