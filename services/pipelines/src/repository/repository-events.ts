import type { Knex } from 'knex';
import { BranchPushedV1, DefaultBranchChangedV1, emit, RepositoryEvents } from '@anvil/events';

/** The producer name on every event this service publishes. */
export const PRODUCER = 'pipelines';

/** Writes `pipelines.repository.default_branch_changed` to the outbox in the caller's transaction. */
export async function defaultBranchChanged(trx: Knex.Transaction, data: DefaultBranchChangedV1): Promise<void> {
  await emit(trx, PRODUCER, RepositoryEvents.defaultBranchChanged, data);
}

/** Writes `pipelines.branch.pushed` to the outbox in the caller's transaction. */
export async function branchPushed(trx: Knex.Transaction, data: BranchPushedV1): Promise<void> {
  await emit(trx, PRODUCER, RepositoryEvents.branchPushed, data);
}
