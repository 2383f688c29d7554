import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp, projectClient } from './app';
import { configSchema, type TransferConfig } from './config';
import { exportPartsConsumer } from './exports/part-consumer';

/** The project-transfer service, as the runtime boots it: the export/import API and the consumers that build archives. */
export const projectTransferService: ServiceDefinition<TransferConfig> = {
  name: 'project-transfer',
  defaultPort: 7103,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [
    exportPartsConsumer({
      db: deps.db,
      storage: deps.storage,
      log: deps.log,
      allowLocalRequests: deps.config.ALLOW_LOCAL_REQUESTS,
      fullPath: async (id) => (await projectClient(deps).project(id))?.path_with_namespace ?? `project-${id}`,
    }),
  ],
};
export { configSchema };
