import { consumeOnce, type EventEnvelope, IdentityEvents, type ProjectEventV1 } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';

/** The queue pipelines read project changes from. */
export const PIPELINE_PROJECTS_QUEUE = 'pipelines.pipeline-projects';

/**
 * `identity.project.deleted` → the project's pipelines go with their jobs and variables (GitLab
 * destroys them with the project); `identity.project.updated` keeps the recorded path current.
 */
export function pipelineProjectConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: PIPELINE_PROJECTS_QUEUE,
    patterns: [IdentityEvents.projectDeleted, IdentityEvents.projectUpdated],
    handler: async (event: EventEnvelope) => {
      const project = event.data as ProjectEventV1;
      await consumeOnce(deps.db, PIPELINE_PROJECTS_QUEUE, event, async (trx) => {
        if (event.type === IdentityEvents.projectDeleted) {
          await trx('pipelines').where({ project_id: project.id }).delete();
          await trx('ci_projects').where({ id: project.id }).delete();
          return;
        }
        await trx('ci_projects').where({ id: project.id }).update({ path_with_namespace: project.path_with_namespace, visibility: project.visibility, updated_at: trx.fn.now() });
      });
    },
  };
}
