import type { Db } from '../sql';
import { dateOnly } from '../sql';

/** A project share: `projectId` shared with the members of group `groupId`. */
export interface ProjectGroupLink {
  id: number;
  projectId: number;
  groupId: number;
  groupAccess: number;
  /** `YYYY-MM-DD` or null (never expires). */
  expiresAt: string | null;
}

interface ProjectGroupLinkRow {
  id: number;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: Date | string | null;
}

const toLink = (r: ProjectGroupLinkRow): ProjectGroupLink => ({ id: r.id, projectId: r.project_id, groupId: r.group_id, groupAccess: r.group_access, expiresAt: dateOnly(r.expires_at) });

/** Reads and writes `project_group_links`. */
export const projectGroupLinkStore = {
  /** The share of `projectId` with `groupId`, or null. */
  async find(db: Db, projectId: number, groupId: number): Promise<ProjectGroupLink | null> {
    const row = (await db('project_group_links').where({ project_id: projectId, group_id: groupId }).first()) as ProjectGroupLinkRow | undefined;
    return row ? toLink(row) : null;
  },

  /** Inserts a share; null when the pair is already shared (nothing written). */
  async insert(db: Db, link: Omit<ProjectGroupLink, 'id'>): Promise<ProjectGroupLink | null> {
    const rows = (await db('project_group_links')
      .insert({ project_id: link.projectId, group_id: link.groupId, group_access: link.groupAccess, expires_at: link.expiresAt })
      .onConflict(['project_id', 'group_id'])
      .ignore()
      .returning('*')) as ProjectGroupLinkRow[];
    return rows.length ? toLink(rows[0]) : null;
  },

  /** Deletes one share. */
  async delete(db: Db, id: number): Promise<void> {
    await db('project_group_links').where({ id }).delete();
  },
};
