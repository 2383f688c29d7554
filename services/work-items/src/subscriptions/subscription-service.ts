import type { Knex } from 'knex';
import { NotModifiedError } from '@anvil/http';
import type { Issue } from '../issues/issue-row';
import { loadIssueViews } from '../issues/issue-loader';
import { emitSubscriptionEvent } from '../events/work-item-events';

/** Whether `userId` is subscribed to the issue (explicitly, or as a participant). */
export async function isSubscribed(db: Knex, issue: Issue, userId: number): Promise<boolean> {
  const { views } = await loadIssueViews(db, [issue], { subscriber: userId });
  return views[0].subscribed === true;
}

/**
 * Subscribes (`true`) or unsubscribes (`false`) a user; when the state already is that,
 * GitLab's `304 Not Modified` (empty body). Announces `work-items.subscription.updated`.
 */
export async function setSubscription(db: Knex, issue: Issue, userId: number, subscribed: boolean): Promise<void> {
  if ((await isSubscribed(db, issue, userId)) === subscribed) throw new NotModifiedError();
  await db.transaction(async (trx) => {
    await trx.raw(
      `INSERT INTO subscriptions (user_id, subscribable_type, subscribable_id, project_id, subscribed) VALUES (?, 'Issue', ?, ?, ?)
       ON CONFLICT (user_id, subscribable_type, subscribable_id) DO UPDATE SET subscribed = EXCLUDED.subscribed, updated_at = now()`,
      [userId, issue.id, issue.projectId, subscribed],
    );
    await emitSubscriptionEvent(trx, { user_id: userId, subscribable_type: 'Issue', subscribable_id: issue.id, project_id: issue.projectId, subscribed });
  });
}
