import type { AwardRow } from '../award-emoji/award-store';
import type { UserRow } from '../read-model/store';
import { toUserBasic } from './user';

/** GitLab's `AwardEmoji` entity. */
export function toAwardEmoji(a: AwardRow, user: UserRow | undefined): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    user: toUserBasic(user),
    created_at: new Date(a.created_at).toISOString(),
    updated_at: new Date(a.updated_at).toISOString(),
    awardable_id: a.awardable_id,
    awardable_type: a.awardable_type,
  };
}
