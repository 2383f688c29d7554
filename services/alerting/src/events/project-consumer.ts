import { consumeOnce, IdentityEvents, type ProjectEventV1 } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';

/** The consumer name recorded in the inbox (and the queue name without a test prefix). */
export const PROJECTS_CONSUMER = 'alerting.projects';

/** A deleted project takes its integrations (their keys stop working), alerts, settings and iid counter with it, each event applied once. */
export function projectDeletedConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: PROJECTS_CONSUMER,
    patterns: [IdentityEvents.projectDeleted],
    handler: async (event) => {
      const projectId = (event.data as ProjectEventV1).id;
      await consumeOnce(deps.db, PROJECTS_CONSUMER, event, async (trx) => {
        for (const table of ['alert_integrations', 'alerts', 'alert_settings', 'alert_iids']) await trx(table).where({ project_id: projectId }).delete();
      });
    },
  };
}
