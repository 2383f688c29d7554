import { consumeOnce, type EventEnvelope, IdentityEvents, type ProjectEventV1 } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';

/** The queue the repository reads project deletions from. */
export const REPOSITORY_PROJECTS_QUEUE = 'pipelines.repository-projects';

/**
 * `identity.project.deleted` → the project's branches, commits and repository row go. Blobs and
 * trees are shared by content across projects and stay.
 */
export function repositoryProjectConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: REPOSITORY_PROJECTS_QUEUE,
    patterns: [IdentityEvents.projectDeleted],
    handler: async (event: EventEnvelope) => {
      const projectId = (event.data as ProjectEventV1).id;
      await consumeOnce(deps.db, REPOSITORY_PROJECTS_QUEUE, event, async (trx) => {
        await trx('repository_branches').where({ project_id: projectId }).delete();
        await trx('repository_commits').where({ project_id: projectId }).delete();
        await trx('repositories').where({ project_id: projectId }).delete();
      });
    },
  };
}
