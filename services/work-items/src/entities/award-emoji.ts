import type { Award } from '../award-emoji/award-store';
import type { UserRow } from '../read-model/store';
import { timestamps } from './timestamps';
import { toUserBasic } from './user';

/** GitLab's `AwardEmoji` entity; `url` is a custom emoji's file, null for the standard ones served here. */
export function toAwardEmoji(a: Award, user: UserRow | undefined): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    user: toUserBasic(user),
    ...timestamps(a),
    awardable_id: a.awardableId,
    awardable_type: a.awardableType,
    url: null,
  };
}
