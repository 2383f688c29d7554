import { dateOnly } from '../sql';

/** Where a membership applies: a project, or a group (GitLab's `Namespace` source type). */
export type SourceType = 'Project' | 'Namespace';

/** A row of `members` joined with the member (`u_*`) and the creator (`c_*`). */
export interface MemberRow {
  id: number;
  source_type: SourceType;
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: Date | string | null;
  created_by_id: number | null;
  created_at: Date;
  updated_at: Date;
  u_username: string;
  u_name: string;
  u_state: 'active' | 'blocked';
  c_username: string | null;
  c_name: string | null;
  c_state: 'active' | 'blocked' | null;
}

/** A brief user (what UserBasic shows). */
export interface UserBrief {
  id: number;
  username: string;
  name: string;
  state: 'active' | 'blocked';
}

/** A membership with its user and creator. */
export interface Member {
  id: number;
  sourceType: SourceType;
  sourceId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdAt: Date;
  user: UserBrief;
  createdBy: UserBrief | null;
}

/** Maps a joined member row to a Member. */
export function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    sourceType: row.source_type,
    sourceId: row.source_id,
    accessLevel: row.access_level,
    expiresAt: dateOnly(row.expires_at),
    createdAt: row.created_at,
    user: { id: row.user_id, username: row.u_username, name: row.u_name, state: row.u_state },
    createdBy: row.created_by_id && row.c_username ? { id: row.created_by_id, username: row.c_username, name: row.c_name ?? row.c_username, state: row.c_state ?? 'active' } : null,
  };
}

/** Valid membership levels (Guest … Owner; Minimal access and Planner included as GitLab has them). */
export const MEMBER_LEVELS = [5, 10, 15, 20, 30, 40, 50];
