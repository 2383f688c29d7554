import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';

/** The registry service, as the runtime boots it. */
export const registryService: ServiceDefinition = {
  name: 'registry',
  defaultPort: 7102,
  migrations,
  configSchema,
  createApp,
};
export { configSchema };
