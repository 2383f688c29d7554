import type { ServiceDefinition, ServiceDeps } from '@anvil/runtime';
import { SERVICE_EXTENSIONS } from '@anvil/db';
import { migrations } from '../migrations';
import { createApp, identityContext } from './app';
import { configSchema, IdentityConfig } from './config';
import { DeliveryWorker } from './hooks/delivery-worker';
import { hooksConsumer } from './hooks/hook-consumer';
import { settingsStore } from './settings/application-settings';
import { bootstrapAdmin } from './users/bootstrap';
import { ldapSyncConsumer } from './ldap/ldap-sync-consumer';
import { repositoryConsumer } from './events/repository-consumer';
import { exportConsumer } from './transfer/export-consumer';
import { importConsumer } from './transfer/import-consumer';

const workers = new WeakMap<ServiceDeps, DeliveryWorker>();

/** The hook delivery worker of a running service (one per service instance). */
function workerOf(deps: ServiceDeps): DeliveryWorker {
  let worker = workers.get(deps);
  if (!worker) {
    const config = deps.config as typeof deps.config & IdentityConfig;
    worker = new DeliveryWorker(deps.db, identityContext(deps).publicUrl, deps.log, config.HOOK_DELIVERY_POLL_MS);
    workers.set(deps, worker);
  }
  return worker;
}

/**
 * The identity service, as the runtime boots it: ensures the administrator and the instance
 * settings on start, queues group hook deliveries from the event stream and delivers them.
 */
export const identityService: ServiceDefinition = {
  name: 'identity',
  defaultPort: 7101,
  migrations,
  configSchema,
  createApp,
  serialQueries: true,
  extensions: SERVICE_EXTENSIONS.identity,
  consumers: (deps) => [
    ldapSyncConsumer(deps), hooksConsumer(deps, identityContext(deps).publicUrl, workerOf(deps)), repositoryConsumer(deps), exportConsumer(deps),
    importConsumer(deps, identityContext(deps).publicUrl),
  ],
  async onStart(deps) {
    const config = deps.config as typeof deps.config & IdentityConfig;
    await bootstrapAdmin(identityContext(deps), { adminToken: config.ADMIN_TOKEN, adminPassword: config.ADMIN_PASSWORD });
    await settingsStore.ensure(deps.db, config.APPLICATION_SETTINGS ? (JSON.parse(config.APPLICATION_SETTINGS) as Record<string, unknown>) : {});
    if (config.HOOK_DELIVERY_WORKER) workerOf(deps).start();
  },
  async onStop(deps) {
    await workers.get(deps)?.stop();
  },
};
export { configSchema };
export { ROOT, BOOTSTRAP_SCOPES } from './users/bootstrap';
export { importIdentityPart } from './transfer/project-import';
