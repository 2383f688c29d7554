import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';

/** The `UserBasic` an award shows for `u`. */
export function userJson(u: Actor): Record<string, unknown> {
  return { id: u.id, username: u.username, name: u.name, state: 'active', locked: false, avatar_url: null, web_url: `http://127.0.0.1:8080/${u.username}` };
}

/** The exact `AwardEmoji` entity expected for an award by `u`. */
export function awardJson(u: Actor, name: string, awardableType: string, awardableId: number): Record<string, unknown> {
  return {
    id: expect.any(Number), name, user: userJson(u), created_at: expect.any(String), updated_at: expect.any(String),
    awardable_id: awardableId, awardable_type: awardableType, url: null,
  };
}

/** The `data` of the outbox events of one type about award `id`, oldest first. */
export async function awardEvents(svc: TestService, type: 'awarded' | 'removed', id: number): Promise<Record<string, unknown>[]> {
  const rows = await svc.deps.db('outbox').where({ type: `work-items.award_emoji.${type}` }).whereRaw("data->>'id' = ?", [String(id)]).orderBy('id');
  return rows.map((r: { data: Record<string, unknown> }) => r.data);
}

/** The stored award rows of an awardable, oldest first. */
export async function storedAwards(svc: TestService, type: string, id: number): Promise<{ id: number; name: string; user_id: number }[]> {
  return svc.deps.db('award_emoji').select('id', 'name', 'user_id').where({ awardable_type: type, awardable_id: id }).orderBy('id');
}
