import { prepareStorage } from '@anvil/storage';
import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp, registryDeps } from './app';
import { configSchema, type RegistryConfig } from './config';
import { projectDeletedConsumer } from './events/consumers';

/** The registry service (Conan v1 and v2), as the runtime boots it. */
export const registryService: ServiceDefinition<RegistryConfig> = {
  name: 'registry',
  defaultPort: 7102,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [projectDeletedConsumer(registryDeps(deps))],
  onStart: (deps) => prepareStorage(deps.storage),
};
export { configSchema };
export { RegistryEvents } from './events/contracts';
export type { PackageEventV1 } from './events/contracts';
