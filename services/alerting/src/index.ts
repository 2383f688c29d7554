import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';
import { incidentLinkConsumer } from './events/incident-consumer';
import { projectDeletedConsumer } from './events/project-consumer';

/** The alerting service, as the runtime boots it. */
export const alertingService: ServiceDefinition = {
  name: 'alerting',
  defaultPort: 7106,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [incidentLinkConsumer(deps), projectDeletedConsumer(deps)],
};
export { configSchema };
