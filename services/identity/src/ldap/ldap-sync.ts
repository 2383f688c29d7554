import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import type { LdapGroupLink } from './ldap-group-link';
import { ldapGroupLinkStore } from './ldap-group-link';
import { LdapDirectory } from './ldap-directory';
import type { LdapProvider } from './ldap-provider';
import { applyMembership } from './ldap-membership';
import { ldapSyncStore } from './ldap-sync-store';

/**
 * Queues a sync of the group (GitLab's `pending_ldap_sync` + worker): ready|failed → pending and
 * `identity.ldap_sync.requested` in one transaction; nothing is queued when one is pending or running.
 */
export async function requestLdapSync(ctx: IdentityContext, groupId: number, actorId: number): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    if (!(await ldapSyncStore.markPending(trx, groupId))) return false;
    await publish.ldapSyncRequested(trx, groupId, actorId);
    return true;
  });
}

/** Normalised member DN → the highest `group_access` among the links that include it. */
export async function desiredLevels(directory: LdapDirectory, links: LdapGroupLink[]): Promise<Map<string, number>> {
  const levels = new Map<string, number>();
  for (const link of links) {
    const dns = link.cn ? await directory.groupMemberDns(link.cn) : await directory.filterDns(link.filter as string);
    for (const dn of dns) levels.set(dn, Math.max(levels.get(dn) ?? 0, link.groupAccess));
  }
  return levels;
}

/** Syncs the group's members with one provider's linked groups; a group without links for it is left alone. */
async function syncWithProvider(ctx: IdentityContext, groupId: number, traversalIds: number[], provider: LdapProvider): Promise<void> {
  const links = await ldapGroupLinkStore.forGroup(ctx.db, groupId, provider.name);
  if (!links.length) return;
  const directory = await LdapDirectory.open(provider);
  try {
    const desired = await desiredLevels(directory, links);
    await applyMembership(ctx, { groupId, ancestorIds: traversalIds.slice(0, -1), provider: provider.name }, desired);
  } finally {
    await directory.close();
  }
}

/**
 * Runs one group's LDAP sync (GitLab's `Sync::Group`): started, every provider synced, then ready —
 * or failed with the error. A group already being synced is skipped unless stuck (then failed, so
 * the next request runs again); a group that is gone is skipped.
 */
export async function runLdapSync(ctx: IdentityContext, providers: LdapProvider[], groupId: number): Promise<void> {
  const traversalIds = await ldapSyncStore.traversalIds(ctx.db, groupId);
  if (!traversalIds) return;
  if (!(await ldapSyncStore.markStarted(ctx.db, groupId))) {
    await ldapSyncStore.failIfStuck(ctx.db, groupId);
    return;
  }
  try {
    for (const provider of providers) await syncWithProvider(ctx, groupId, traversalIds, provider);
    await ldapSyncStore.markFinished(ctx.db, groupId);
  } catch (e) {
    await ldapSyncStore.markFailed(ctx.db, groupId, e instanceof Error ? e.message : String(e));
  }
}
