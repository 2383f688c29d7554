import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { repositoryProjectConsumer } from './repository/project-consumer';
import { configSchema } from './config';

/** The pipelines service, as the runtime boots it. */
export const pipelinesService: ServiceDefinition = {
  name: 'pipelines',
  defaultPort: 7105,
  consumers: (deps) => [repositoryProjectConsumer(deps)],
  migrations,
  configSchema,
  createApp,
};
export { configSchema };
