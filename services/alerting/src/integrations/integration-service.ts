import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashToken } from '@anvil/auth';
import { isUniqueViolation } from '@anvil/db';
import { ConflictError, NotFoundError } from '@anvil/http';
import { deleteIntegration, findIntegration, insertIntegration, Integration, IntegrationType, updateIntegration } from './integration-store';

/** The endpoint identifier of the project's Prometheus integration (GitLab's legacy Prometheus one: one per project). */
export const PROMETHEUS_IDENTIFIER = 'legacy-prometheus';

/** An integration with its plain key, which exists only in the answer that made it. */
export interface IssuedIntegration {
  integration: Integration;
  token: string;
}

/** A new key: 32 hex digits, as GitLab's `SecureRandom.hex`. */
function newToken(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Creates an integration with a fresh key (stored as its digest) and endpoint identifier (16 hex
 * digits; the Prometheus one is fixed, so a second Prometheus integration is 409).
 */
export async function createIntegration(db: Knex, projectId: number, input: { name: string; type: IntegrationType; active: boolean }): Promise<IssuedIntegration> {
  const token = newToken();
  const endpoint = input.type === 'prometheus' ? PROMETHEUS_IDENTIFIER : randomBytes(8).toString('hex');
  try {
    const integration = await insertIntegration(db, {
      project_id: projectId, name: input.name, type: input.type, active: input.active, endpoint_identifier: endpoint, token_digest: hashToken(token),
    });
    return { integration, token };
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError('Multiple Prometheus integrations are not supported');
    throw e;
  }
}

/** The project's integration `id`, else 404 `Integration Not Found`. */
export async function loadIntegration(db: Knex, projectId: number, id: number): Promise<Integration> {
  const found = await findIntegration(db, projectId, id);
  if (!found) throw new NotFoundError('Integration');
  return found;
}

/** Renames or (de)activates an integration. */
export function editIntegration(db: Knex, integration: Integration, input: { name?: string; active?: boolean }): Promise<Integration> {
  return updateIntegration(db, integration.id, { name: input.name, active: input.active });
}

/** Replaces an integration's key; the old one stops working at once. */
export async function resetIntegrationToken(db: Knex, integration: Integration): Promise<IssuedIntegration> {
  const token = newToken();
  return { integration: await updateIntegration(db, integration.id, { token_digest: hashToken(token) }), token };
}

/** Deletes an integration; its alerts stay. */
export function removeIntegration(db: Knex, integration: Integration): Promise<void> {
  return deleteIntegration(db, integration.id);
}
