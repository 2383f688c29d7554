import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';
import { identityConsumer } from './read-model/consumer';
import { settingsConsumer } from './settings/settings-consumer';

/** The work-items service, as the runtime boots it. */
export const workItemsService: ServiceDefinition = {
  name: 'work-items',
  defaultPort: 7104,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [identityConsumer(deps), settingsConsumer(deps)],
};
export { configSchema };
