import { AlertEvents, type AlertEventV1, consumeOnce } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { closeIncident, openIncident } from './incident-service';

/** The consumer name recorded in the inbox (and the queue name without a test prefix). */
export const INCIDENTS_CONSUMER = 'work-items.incidents';

/** Opens incidents for new alerts and closes them when their alerts resolve, each event applied once. */
export function incidentConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: INCIDENTS_CONSUMER,
    patterns: [AlertEvents.created, AlertEvents.resolved],
    handler: async (event) => {
      const alert = event.data as AlertEventV1;
      await consumeOnce(deps.db, INCIDENTS_CONSUMER, event, (trx) => (event.type === AlertEvents.created ? openIncident(trx, alert) : closeIncident(trx, alert)));
    },
  };
}
