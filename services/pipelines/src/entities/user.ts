import type { UserSnapshot } from '../pipelines/pipeline-store';

/** GitLab's `UserBasic`. */
export interface UserBasic {
  id: number;
  username: string;
  name: string;
  state: string;
  locked: boolean;
  avatar_url: string | null;
  web_url: string;
}

/** Serialises a recorded user as `UserBasic` (null stays null). */
export function toUserBasic(u: UserSnapshot | null | undefined, base: string): UserBasic | null {
  if (!u) return null;
  return { id: u.id, username: u.username, name: u.name, state: u.state, locked: false, avatar_url: null, web_url: `${base}/${u.username}` };
}
