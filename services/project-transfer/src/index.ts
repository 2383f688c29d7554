import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';

/** The project-transfer service, as the runtime boots it. */
export const projectTransferService: ServiceDefinition = {
  name: 'project-transfer',
  defaultPort: 7103,
  migrations,
  configSchema,
  createApp,
};
export { configSchema };
