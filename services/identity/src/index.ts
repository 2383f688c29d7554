import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp, identityContext } from './app';
import { configSchema, IdentityConfig } from './config';
import { settingsStore } from './settings/application-settings';
import { bootstrapAdmin } from './users/bootstrap';

/** The identity service, as the runtime boots it: ensures the administrator on start. */
export const identityService: ServiceDefinition = {
  name: 'identity',
  defaultPort: 7101,
  migrations,
  configSchema,
  createApp,
  async onStart(deps) {
    const config = deps.config as typeof deps.config & IdentityConfig;
    await bootstrapAdmin(identityContext(deps), { adminToken: config.ADMIN_TOKEN, adminPassword: config.ADMIN_PASSWORD });
    await settingsStore.ensure(deps.db, config.APPLICATION_SETTINGS ? (JSON.parse(config.APPLICATION_SETTINGS) as Record<string, unknown>) : {});
  },
};
export { configSchema };
export { ROOT, BOOTSTRAP_SCOPES } from './users/bootstrap';
