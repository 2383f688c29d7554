import { iso } from '../sql';
import type { Member } from '../members/member';
import { toUserBasic } from './user';

/** `Member`: the user (UserBasic, merged), access_level, created_at, created_by (when known), expires_at. */
export function toMemberEntity(m: Member, base: string) {
  return {
    ...toUserBasic(m.user, base),
    access_level: m.accessLevel,
    created_at: iso(m.createdAt),
    ...(m.createdBy ? { created_by: toUserBasic(m.createdBy, base) } : {}),
    expires_at: m.expiresAt,
  };
}
