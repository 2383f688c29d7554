import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';
import { incidentConsumer } from './incidents/incident-consumer';
import { identityConsumer } from './read-model/consumer';
import { exportConsumer } from './transfer/export-consumer';
import { importConsumer } from './transfer/import-consumer';
import { settingsConsumer } from './settings/settings-consumer';
import { relationImportConsumer } from './transfer/relation-import-consumer';

/** The work-items service, as the runtime boots it. */
export const workItemsService: ServiceDefinition = {
  name: 'work-items',
  defaultPort: 7104,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [
    identityConsumer(deps), incidentConsumer(deps), exportConsumer(deps), importConsumer(deps), settingsConsumer(deps), relationImportConsumer(deps),
  ],
};
export { configSchema };
export { importConsumer as transferImportConsumer } from './transfer/import-consumer';
