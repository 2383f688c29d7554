import type { ServiceDefinition, ServiceDeps } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp, partsOf, projectClient } from './app';
import { configSchema, type TransferConfig } from './config';
import { type AssembleDeps, exportPartsConsumer } from './exports/part-consumer';
import { type ImportDeps, importsConsumer } from './imports/import-consumer';
import { relationImportsConsumer } from './imports/relation-import-consumer';
import { liveSettingsFor } from './settings/live-settings';
import { settingsConsumers } from './settings/settings-consumer';
import { partProgressConsumer } from './sweep/progress-consumer';
import { StuckJobSweeper, type SweepDeps } from './sweep/sweeper';

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

/** What assembling an export's archive needs, from the service's deps (the instance settings as last read). */
function assembleDeps(deps: ServiceDeps<TransferConfig>): AssembleDeps {
  return {
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
  };
}

/** What the stuck-job sweep needs, from the service's deps and its settings. */
export function sweepDeps(deps: ServiceDeps<TransferConfig>): SweepDeps {
  const c = deps.config;
  return {
    db: deps.db,
    storage: deps.storage,
    log: deps.log,
    assemble: assembleDeps(deps),
    limits: {
      stallSeconds: c.TRANSFER_STALL_SECONDS, maxRedrives: c.TRANSFER_MAX_REDRIVES,
      exportExpirationSeconds: c.EXPORT_JOBS_EXPIRATION_SECONDS, importExpirationSeconds: c.IMPORT_JOBS_EXPIRATION_SECONDS,
    },
  };
}

const sweepers = new WeakMap<object, StuckJobSweeper>();

/** The project-transfer service, as the runtime boots it: the export/import API and the consumers that build archives. */
export const projectTransferService: ServiceDefinition<TransferConfig> = {
  name: 'project-transfer',
  defaultPort: 7103,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [
    ...settingsConsumers(deps),
    exportPartsConsumer(assembleDeps(deps)),
    importsConsumer(importDeps(deps)),
    relationImportsConsumer(importDeps(deps)),
    partProgressConsumer(deps.db),
  ],
  onStart: async (deps) => {
    // the administrator's last values, not the environment's, once identity has published any
    await liveSettingsFor(deps).fresh(deps.db, 0);
    // the sweep runs where the consumers run (a worker, or `ROLE=all`)
    if (deps.config.ROLE === 'api') return;
    const sweeper = new StuckJobSweeper(sweepDeps(deps), deps.config.TRANSFER_SWEEP_INTERVAL_SECONDS * 1000);
    sweepers.set(deps, sweeper);
    sweeper.start();
  },
  onStop: async (deps) => {
    await sweepers.get(deps)?.stop();
    sweepers.delete(deps);
  },
};
export { configSchema };
