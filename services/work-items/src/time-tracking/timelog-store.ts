import type { Knex } from 'knex';

/** An issue's `total_time_spent`, its row locked until the transaction ends (time logs add to it). */
export async function lockedTimeSpent(trx: Knex.Transaction, issueId: number): Promise<number> {
  const row: { total_time_spent: number } = await trx('issues').select('total_time_spent').where({ id: issueId }).forUpdate().first();
  return row.total_time_spent;
}

/** Records one time log (seconds; negative subtracts) of a user on an issue. */
export async function insertTimelog(trx: Knex.Transaction, log: { issueId: number; userId: number; timeSpent: number; summary: string | null; spentAt?: Date }): Promise<void> {
  const at = log.spentAt ? { spent_at: log.spentAt } : {};
  await trx('timelogs').insert({ issue_id: log.issueId, user_id: log.userId, time_spent: log.timeSpent, summary: log.summary, ...at });
}
