import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';

/** The identity service, as the runtime boots it. */
export const identityService: ServiceDefinition = {
  name: 'identity',
  defaultPort: 7101,
  migrations,
  configSchema,
  createApp,
};
export { configSchema };
