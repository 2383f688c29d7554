import type { EventEnvelope, LdapSyncRequestedV1 } from '@anvil/events';
import { LdapEvents } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { identityContext } from '../app';
import type { IdentityConfig } from '../config';
import { ldapProviders } from './ldap-provider';
import { runLdapSync } from './ldap-sync';

/** The queue identity reads its own LDAP sync requests from. */
export const LDAP_SYNC_QUEUE = 'identity.ldap-sync';

/**
 * `identity.ldap_sync.requested` → the group's LDAP sync runs. A redelivery is harmless: the
 * sync only starts from pending (or ready/failed) and converges on the directory's state.
 */
export function ldapSyncConsumer(deps: ServiceDeps): Consumer {
  const ictx = identityContext(deps);
  const providers = ldapProviders(deps.config as Partial<IdentityConfig>);
  return {
    queue: LDAP_SYNC_QUEUE,
    patterns: [LdapEvents.syncRequested],
    handler: async (event: EventEnvelope) => {
      if (!providers.length) return;
      await runLdapSync(ictx, providers, (event.data as LdapSyncRequestedV1).group_id);
    },
  };
}
