import type { Knex } from 'knex';
import { ValidationError } from '@anvil/http';
import { emitIssueEvent, IssueEvents, issuePayload } from '../events/issue-events';
import type { Issue } from '../issues/issue-row';
import { assigneeIds, issueLabelTitles, updateIssueRow } from '../issues/issue-store';
import { writeEstimateNote, writeTimeSpentNote } from '../notes/system-notes';
import { insertTimelog, lockedTimeSpent } from './timelog-store';
import { parseDuration } from './duration';

/** GitLab clamps totals to about a year of seconds (`Timelog::MAX_TOTAL_TIME_SPENT`). */
export const MAX_TOTAL_TIME_SPENT = 31_536_000;
const MAX_INT = 2_147_483_647;

async function announce(trx: Knex.Transaction, row: Issue, actorId: number, change: string): Promise<void> {
  const labels = await issueLabelTitles(trx, row.id);
  await emitIssueEvent(trx, IssueEvents.updated, issuePayload(row, { assigneeIds: await assigneeIds(trx, row.id), labels, actorId, changes: [change] }));
}

/**
 * Sets the estimate from a human duration (`3h30m`) or seconds; unparsable or negative input is
 * GitLab's 400 `{"message":{"time_estimate":[...]}}` and the old value stays. A change writes
 * its system note.
 */
export async function setEstimate(db: Knex, issue: Issue, duration: string | number, actorId: number): Promise<Issue> {
  const seconds = typeof duration === 'number' ? duration : parseDuration(duration);
  if (seconds === null || seconds < 0) throw new ValidationError({ time_estimate: ['must have a valid format and be greater than or equal to zero.'] });
  if (seconds === issue.timeEstimate) return issue;
  return db.transaction(async (trx) => {
    const row = await updateIssueRow(trx, issue.id, { time_estimate: Math.min(seconds, MAX_INT), updated_at: new Date() });
    await announce(trx, row, actorId, 'time_estimate');
    await writeEstimateNote(trx, row, issue.timeEstimate, actorId);
    return row;
  });
}

/** When spent time was spent (default now), and its summary. */
export interface SpendOptions {
  summary?: string | null;
  spentAt?: Date;
}

/**
 * Logs spent time, a human duration or seconds (negative subtracts; more than the total is
 * GitLab's 400 with `base: Time to subtract exceeds the total time spent`). `reset` logs minus
 * the total. Writes the `added …/subtracted …/removed time spent` system note.
 */
export async function spendTime(db: Knex, issue: Issue, duration: string | number | 'reset', actorId: number, opts: SpendOptions = {}): Promise<Issue> {
  return db.transaction(async (trx) => {
    const current = await lockedTimeSpent(trx, issue.id);
    let seconds: number;
    if (duration === 'reset') seconds = -current;
    else {
      const parsed = typeof duration === 'number' ? duration : parseDuration(duration);
      if (parsed === null) throw new ValidationError({ time_spent: ["can't be blank"] });
      if (parsed < 0 && -parsed > current) throw new ValidationError({ base: ['Time to subtract exceeds the total time spent'] });
      seconds = parsed;
    }
    if (seconds === 0 && duration === 'reset') return issue;
    await insertTimelog(trx, { issueId: issue.id, userId: actorId, timeSpent: seconds, summary: opts.summary ?? null, spentAt: opts.spentAt });
    const total = Math.max(-MAX_TOTAL_TIME_SPENT, Math.min(MAX_TOTAL_TIME_SPENT, current + seconds));
    const row = await updateIssueRow(trx, issue.id, { total_time_spent: total, updated_at: new Date() });
    await announce(trx, row, actorId, 'total_time_spent');
    const spentOn = opts.spentAt ? opts.spentAt.toISOString().slice(0, 10) : null;
    await writeTimeSpentNote(trx, row, duration === 'reset' ? 'reset' : seconds, spentOn, actorId);
    return row;
  });
}
