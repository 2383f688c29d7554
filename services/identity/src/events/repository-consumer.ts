import { consumeOnce, type DefaultBranchChangedV1, type EventEnvelope, RepositoryEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';

/** The queue identity reads repository default-branch changes from. */
export const REPOSITORY_QUEUE = 'identity.repository';

/**
 * `pipelines.repository.default_branch_changed` → the project's `default_branch` follows what its
 * repository answers (GitLab: the first pushed branch becomes the default). Applied once per event;
 * a deleted project is left alone.
 */
export function repositoryConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: REPOSITORY_QUEUE,
    patterns: [RepositoryEvents.defaultBranchChanged],
    handler: async (event: EventEnvelope) => {
      const data = event.data as DefaultBranchChangedV1;
      await consumeOnce(deps.db, REPOSITORY_QUEUE, event, async (trx) => {
        await trx('projects').where({ id: data.project_id }).update({ default_branch: data.default_branch, updated_at: trx.fn.now() });
      });
    },
  };
}
