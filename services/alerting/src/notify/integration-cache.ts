import type { Db } from '@anvil/db';
import type { Knex } from 'knex';
import { Integration, integrationForEndpoint, IntegrationRow } from '../integrations/integration-store';
import { keyOpens } from './credentials';

/** Past this many integrations the cache starts over. */
const MAX_ENTRIES = 10_000;

/**
 * The integrations notify URLs named in this process, so a request whose key opens the remembered
 * integration costs no query before its body is read. The entry is only a candidate: any other
 * case (no entry, a key that does not open it) looks the integration up as before, and every batch
 * that stores alerts re-reads the row of each integration it uses in its own transaction
 * (`staleIntegrations`, `FOR SHARE`, so a key reset or a deactivation waits for batches in flight), so a
 * key reset, deactivated or deleted on any replica opens nothing once that change has committed.
 */
export class IntegrationCache {
  private readonly entries = new Map<string, Integration>();

  /** The integration `key` opens at this endpoint, else undefined. */
  async opened(db: Db, projectId: number, identifier: string | null, key: string | null): Promise<Integration | undefined> {
    const name = `${projectId}/${identifier ?? ''}`;
    const remembered = this.entries.get(name);
    if (remembered && keyOpens(remembered, key)) return remembered;
    const integration = await integrationForEndpoint(db, projectId, identifier);
    if (integration) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(name, integration);
    } else this.entries.delete(name);
    return keyOpens(integration, key) ? integration : undefined;
  }

  /** Drops what is remembered of the integration (its row changed). */
  forget(integrationId: number): void {
    for (const [name, i] of this.entries) if (i.id === integrationId) this.entries.delete(name);
  }
}

/**
 * The ids of those integrations whose row is no longer as remembered (gone, inactive, another key
 * digest), read in `trx` with a share lock (a key reset or a deactivation waits for the batch).
 */
export async function staleIntegrations(trx: Knex.Transaction, remembered: Integration[]): Promise<number[]> {
  const ids = [...new Set(remembered.map((i) => i.id))];
  const rows = await trx<IntegrationRow>('alert_integrations').select('id', 'token_digest', 'active').whereIn('id', ids.map(String)).forShare();
  const current = new Map(rows.map((r) => [Number(r.id), r]));
  return [...new Set(remembered.filter((i) => {
    const row = current.get(i.id);
    return !row || !row.active || row.token_digest !== i.tokenDigest;
  }).map((i) => i.id))];
}
