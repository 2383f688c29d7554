import type { ServiceDefinition, ServiceDeps } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp, partsOf, projectClient } from './app';
import { configSchema, type TransferConfig } from './config';
import { exportPartsConsumer } from './exports/part-consumer';
import { type ImportDeps, importsConsumer } from './imports/import-consumer';
import { relationImportsConsumer } from './imports/relation-import-consumer';
import { liveSettingsFor } from './settings/live-settings';
import { settingsConsumers } from './settings/settings-consumer';

/** What the import consumers need, from the service's deps. */
function importDeps(deps: ServiceDeps<TransferConfig>): ImportDeps {
  return {
    db: deps.db,
    storage: deps.storage,
    log: deps.log,
    projects: projectClient(deps),
    limits: { maxEntries: deps.config.IMPORT_MAX_ENTRIES, maxBytes: deps.config.IMPORT_MAX_UNPACKED_MB * 1024 * 1024 },
    parts: partsOf(deps.config.IMPORT_PARTS, 'identity,work-items,pipelines'),
  };
}

/** The project-transfer service, as the runtime boots it: the export/import API and the consumers that build archives. */
export const projectTransferService: ServiceDefinition<TransferConfig> = {
  name: 'project-transfer',
  defaultPort: 7103,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [
    ...settingsConsumers(deps),
    exportPartsConsumer({
      db: deps.db,
      storage: deps.storage,
      log: deps.log,
      get allowLocalRequests() {
        return liveSettingsFor(deps).current.allow_local_requests_from_web_hooks_and_services;
      },
      get localAllowlist() {
        return liveSettingsFor(deps).current.outbound_local_requests_whitelist;
      },
      get maxExportBytes() {
        return liveSettingsFor(deps).maxExportBytes;
      },
      fullPath: async (id) => (await projectClient(deps).project(id))?.path_with_namespace ?? `project-${id}`,
    }),
    importsConsumer(importDeps(deps)),
    relationImportsConsumer(importDeps(deps)),
  ],
  // the administrator's last values, not the environment's, once identity has published any
  onStart: (deps) => liveSettingsFor(deps).fresh(deps.db, 0).then(() => undefined),
};
export { configSchema };
