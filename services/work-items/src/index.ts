import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';
import { incidentConsumer } from './incidents/incident-consumer';
import { identityConsumer } from './read-model/consumer';

/** The work-items service, as the runtime boots it. */
export const workItemsService: ServiceDefinition = {
  name: 'work-items',
  defaultPort: 7104,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [identityConsumer(deps), incidentConsumer(deps)],
};
export { configSchema };
