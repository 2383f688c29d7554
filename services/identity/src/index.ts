import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp, identityContext } from './app';
import { configSchema, IdentityConfig } from './config';
import { bootstrapAdmin } from './users/bootstrap';
import { ldapSyncConsumer } from './ldap/ldap-sync-consumer';

/** The identity service, as the runtime boots it: ensures the administrator on start. */
export const identityService: ServiceDefinition = {
  name: 'identity',
  defaultPort: 7101,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [ldapSyncConsumer(deps)],
  async onStart(deps) {
    const config = deps.config as typeof deps.config & IdentityConfig;
    await bootstrapAdmin(identityContext(deps), { adminToken: config.ADMIN_TOKEN, adminPassword: config.ADMIN_PASSWORD });
  },
};
export { configSchema };
export { ROOT, BOOTSTRAP_SCOPES } from './users/bootstrap';
