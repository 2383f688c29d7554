import type { UserRow } from '../read-model/store';

/** GitLab's `UserBasic`: the user summary embedded as author, assignees, closed_by, todo author. */
export interface UserBasic {
  id: number;
  username: string;
  name: string;
  state: string;
  locked: boolean;
  avatar_url: string | null;
  web_url: string;
}

/** Serialises a read-model user as `UserBasic` (null stays null). */
export function toUserBasic(u: UserRow | null | undefined): UserBasic | null {
  if (!u) return null;
  return { id: u.id, username: u.username, name: u.name, state: u.state, locked: false, avatar_url: u.avatar_url, web_url: u.web_url };
}
