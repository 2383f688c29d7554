import type { Knex } from 'knex';
import { RequestContext } from '@anvil/auth';
import { ensureActor, ensureProject, projectsByIds } from '../read-model/store';
import { levelOn, Viewer, viewerOf } from './viewer';

/** The project a `/projects/:id/...` request is about, with the caller's level on it. */
export interface ProjectContext {
  id: number;
  path: string;
  pathWithNamespace: string;
  namespaceId: number;
  groupId: number | null;
  /** Ancestor group ids, root first ([] for a personal project). */
  traversalIds: number[];
  visibility: string;
  archived: boolean;
  /** The caller's effective level (admins count as Owner). */
  level: number;
  viewer: Viewer;
  base: string;
}

/**
 * Builds the project context from the gateway's scope, completed by the read model (traversal
 * ids, archived). With `forWrite`, records the actor and project in the read models when
 * identity's events have not arrived yet, so what is written can be shown.
 */
export async function projectContext(db: Knex, ctx: RequestContext, forWrite = false): Promise<ProjectContext> {
  const scope = ctx.project;
  if (!scope) throw new Error('route needs a project scope');
  if (forWrite) {
    await ensureProject(db, scope);
    if (ctx.user) await ensureActor(db, ctx.user, ctx.base);
  }
  const row = (await projectsByIds(db, [scope.id])).get(scope.id);
  return {
    id: scope.id,
    path: row?.path ?? scope.path_with_namespace.split('/').pop() ?? '',
    pathWithNamespace: row?.path_with_namespace ?? scope.path_with_namespace,
    namespaceId: scope.namespace_id,
    groupId: scope.group_id,
    traversalIds: row?.group_traversal_ids?.length ? row.group_traversal_ids : scope.group_id ? [scope.group_id] : [],
    visibility: scope.visibility,
    archived: row?.archived ?? false,
    level: levelOn(ctx),
    viewer: viewerOf(ctx),
    base: ctx.base.replace(/\/$/, ''),
  };
}
