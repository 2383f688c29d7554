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
 * The groups shared with a group the user is a member of (or of whose ancestors they are), where
 * the lower of the share's level and the membership's reaches `:min` (GitLab's group links).
 */
const SHARED_SOURCES = `SELECT gl.shared_group_id FROM group_links gl
  JOIN groups g ON g.id = gl.shared_with_group_id
  JOIN memberships m ON m.user_id = :uid AND m.source_type = :ns AND m.source_id = ANY (g.traversal_ids)
    AND (m.expires_at IS NULL OR m.expires_at >= CURRENT_DATE)
  WHERE NOT gl.deleted AND (gl.expires_at IS NULL OR gl.expires_at >= CURRENT_DATE) AND LEAST(gl.group_access, m.access_level) >= :min`;

/**
 * The projects shared with a group the user reaches (GitLab's project group links): as a member
 * of the group or of one of its ancestors, or through a group share of the group or an ancestor;
 * the lowest of the levels on the way reaches `:min` (each of them does). Unexpired shares only.
 */
const PROJECT_SHARED_SOURCES = `SELECT pgl.project_id FROM project_group_links pgl
  LEFT JOIN groups g ON g.id = pgl.group_id
  WHERE NOT pgl.deleted AND (pgl.expires_at IS NULL OR pgl.expires_at >= CURRENT_DATE) AND pgl.group_access >= :min
    AND (EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = :uid AND m.source_type = :ns
          AND (m.source_id = pgl.group_id OR m.source_id = ANY (g.traversal_ids))
          AND m.access_level >= :min AND (m.expires_at IS NULL OR m.expires_at >= CURRENT_DATE))
      OR g.traversal_ids && ARRAY(${SHARED_SOURCES}))`;

/**
 * SQL condition true when the viewer reaches `min` on the project `alias` through a membership
 * (direct or through an ancestor group), through a group shared with one of their groups, through
 * a share of the project with a group they reach, or `orElse` holds.
 */
export function memberOr(knex: Knex, userId: number, alias: string, min: number, orElse = 'false'): Knex.Raw {
  const bind = { uid: userId, min, project: 'Project', ns: 'Namespace' };
  return knex.raw(
    `(${orElse} OR ${alias}.id IN (${MEMBER_SOURCES.replace(':type', ':project')})
      OR ${alias}.group_traversal_ids && ARRAY(${MEMBER_SOURCES.replace(':type', ':ns')})
      OR ${alias}.group_traversal_ids && ARRAY(${SHARED_SOURCES})
      OR ${alias}.id IN (${PROJECT_SHARED_SOURCES}))`,
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
