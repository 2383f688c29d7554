import type { Knex } from 'knex';
import { AccessLevel, Actor, projectAccess, RequestContext } from '@anvil/auth';

/** Who is looking: the user (null when anonymous) and whether they are an administrator. */
export interface Viewer {
  user: Actor | null;
  admin: boolean;
}

/** The level from which a member may see confidential issues and manage issue metadata (Planner/Reporter). */
export const ISSUE_ADMIN_LEVEL = AccessLevel.PLANNER;

/** The viewer of a request. */
export function viewerOf(ctx: RequestContext): Viewer {
  return { user: ctx.user, admin: !!ctx.user?.admin };
}

/** The caller's effective level on the context's project (admins count as Owner). */
export function levelOn(ctx: RequestContext): number {
  return projectAccess(ctx);
}

const MEMBER_SOURCES = `SELECT source_id FROM memberships
  WHERE user_id = :uid AND source_type = :type AND access_level >= :min AND (expires_at IS NULL OR expires_at >= CURRENT_DATE)`;

/**
 * SQL condition on a projects row (`alias`) true when `viewer` may read the project: public
 * projects, internal ones when logged in, and those the viewer is a member of, directly or
 * through any ancestor group (traversal ids). Administrators read everything.
 */
export function readableProjects(knex: Knex, viewer: Viewer, alias = 'p'): Knex.Raw {
  if (viewer.admin) return knex.raw('true');
  if (!viewer.user) return knex.raw(`${alias}.visibility = 'public'`);
  return memberOr(knex, viewer.user.id, alias, AccessLevel.GUEST, `${alias}.visibility IN ('public', 'internal')`);
}

/**
 * SQL condition true when the viewer reaches `min` on the project `alias` through a membership
 * (direct or through an ancestor group), or `orElse` holds.
 */
export function memberOr(knex: Knex, userId: number, alias: string, min: number, orElse = 'false'): Knex.Raw {
  const bind = { uid: userId, min, project: 'Project', ns: 'Namespace' };
  return knex.raw(
    `(${orElse} OR ${alias}.id IN (${MEMBER_SOURCES.replace(':type', ':project')})
      OR ${alias}.group_traversal_ids && ARRAY(${MEMBER_SOURCES.replace(':type', ':ns')}))`,
    bind,
  );
}

/**
 * SQL condition on an issue (`issue`) in project (`project`) true when the viewer may see it
 * although it may be confidential: not confidential, or the viewer authored it, is assigned (the
 * issue's own `assignee_ids`, so an index entry carrying it suffices), or is a Planner/Reporter+
 * member. `projectLevel` short-cuts the membership lookup when the caller's level on a single
 * project is already known from the gateway.
 */
export function confidentialVisible(knex: Knex, viewer: Viewer, issue = 'i', project = 'p', projectLevel?: number): Knex.Raw | null {
  if (viewer.admin) return null;
  if (projectLevel !== undefined && projectLevel >= ISSUE_ADMIN_LEVEL) return null;
  if (!viewer.user) return knex.raw(`NOT ${issue}.confidential`);
  const uid = viewer.user.id;
  const own = `${issue}.author_id = ${uid} OR ${issue}.assignee_ids @> ARRAY[${uid}]`;
  if (projectLevel !== undefined) return knex.raw(`(NOT ${issue}.confidential OR ${own})`);
  const member = memberOr(knex, uid, project, ISSUE_ADMIN_LEVEL);
  return knex.raw(`(NOT ${issue}.confidential OR ${own} OR ?)`, [member]);
}
