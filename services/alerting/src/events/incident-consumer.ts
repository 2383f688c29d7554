import { consumeOnce, IncidentEvents, type IncidentEventV1 } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';

/** The consumer name recorded in the inbox (and the queue name without a test prefix). */
export const INCIDENTS_CONSUMER = 'alerting.incidents';

/** Links each alert to the incident issue work-items opened for it (`issue_iid`), each event applied once. */
export function incidentLinkConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: INCIDENTS_CONSUMER,
    patterns: [IncidentEvents.created],
    handler: async (event) => {
      const link = event.data as IncidentEventV1;
      await consumeOnce(deps.db, INCIDENTS_CONSUMER, event, async (trx) => {
        await trx('alerts').where({ id: String(link.alert_id), project_id: link.project_id }).update({ issue_iid: link.issue_iid, updated_at: new Date() });
      });
    },
  };
}
