import type { Db } from '@anvil/db';

/** One `alert_integrations` row. */
export interface IntegrationRow {
  id: string;
  project_id: number;
  name: string;
  type: IntegrationType;
  active: boolean;
  endpoint_identifier: string;
  token_digest: string;
  created_at: Date;
  updated_at: Date;
}

export type IntegrationType = 'http' | 'prometheus';

/** An integration as domain code sees it. */
export interface Integration {
  id: number;
  projectId: number;
  name: string;
  type: IntegrationType;
  active: boolean;
  endpointIdentifier: string;
  tokenDigest: string;
  createdAt: Date;
  updatedAt: Date;
}

function fromRow(r: IntegrationRow): Integration {
  return {
    id: Number(r.id), projectId: r.project_id, name: r.name, type: r.type, active: r.active, endpointIdentifier: r.endpoint_identifier,
    tokenDigest: r.token_digest, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

/** A project's integrations, oldest first. */
export async function integrationsOf(db: Db, projectId: number): Promise<Integration[]> {
  return (await db<IntegrationRow>('alert_integrations').where({ project_id: projectId }).orderBy('id')).map(fromRow);
}

/** One integration of the project, or undefined. */
export async function findIntegration(db: Db, projectId: number, id: number): Promise<Integration | undefined> {
  const row = await db<IntegrationRow>('alert_integrations').where({ project_id: projectId, id: String(id) }).first();
  return row && fromRow(row);
}

/**
 * The integration a notify URL names: by endpoint identifier, or for the legacy generic URL
 * (`identifier` null) the project's oldest HTTP integration. Inactive ones are returned too, so
 * every miss costs the same query.
 */
export async function integrationForEndpoint(db: Db, projectId: number, identifier: string | null): Promise<Integration | undefined> {
  const q = db<IntegrationRow>('alert_integrations').where({ project_id: projectId });
  if (identifier === null) q.where({ type: 'http' }).orderBy('id').limit(1);
  else q.where({ endpoint_identifier: identifier });
  const row = await q.first();
  return row && fromRow(row);
}

/** Inserts an integration. */
export async function insertIntegration(db: Db, values: Omit<IntegrationRow, 'id' | 'created_at' | 'updated_at'>): Promise<Integration> {
  const [row] = await db<IntegrationRow>('alert_integrations').insert(values).returning('*');
  return fromRow(row as IntegrationRow);
}

/** Updates an integration's columns (and `updated_at`). */
export async function updateIntegration(db: Db, id: number, values: Partial<Pick<IntegrationRow, 'name' | 'active' | 'token_digest'>>): Promise<Integration> {
  const [row] = await db<IntegrationRow>('alert_integrations').where({ id: String(id) }).update({ ...values, updated_at: new Date() }).returning('*');
  return fromRow(row as IntegrationRow);
}

/** Deletes an integration. */
export async function deleteIntegration(db: Db, id: number): Promise<void> {
  await db('alert_integrations').where({ id }).delete();
}
