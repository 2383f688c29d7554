import { consumeOnce, type EventEnvelope, IdentityEvents, type ProjectEventV1 } from '@anvil/events';
import type { Consumer } from '@anvil/runtime';
import type { RegistryDeps } from '../packages/deps';
import { deleteProjectFiles, deleteProjectPackages } from '../packages/delete-service';

/** The queue this service's project-deletion consumer reads. */
export const PROJECT_DELETED_QUEUE = 'registry.project-deleted';

/**
 * `identity.project.deleted` → that project's package rows go (once per event), then, once that has
 * committed, its stored files: again on every redelivery, so a stop between the two leaves no orphan.
 */
export function projectDeletedConsumer(deps: RegistryDeps): Consumer {
  return {
    queue: PROJECT_DELETED_QUEUE,
    patterns: [IdentityEvents.projectDeleted],
    handler: async (event: EventEnvelope) => {
      const data = event.data as ProjectEventV1;
      await consumeOnce(deps.db, PROJECT_DELETED_QUEUE, event, async (trx) => {
        const n = await deleteProjectPackages(trx, data.id);
        if (n) deps.log.info('deleted the packages of a deleted project', { project_id: data.id, packages: n });
      });
      await deleteProjectFiles(deps, data.id);
    },
  };
}
