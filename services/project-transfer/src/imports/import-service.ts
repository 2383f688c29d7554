import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { emit, type ImportRequestedV1, TransferImportEvents } from '@anvil/events';
import type { ProjectClient, ProjectIdentity } from '../identity/project-client';
import { PRODUCER } from '../exports/export-service';
import { type ImportRow, importStore } from './import-store';

/** What `POST /projects/import` asks for. */
export interface ImportRequest {
  userId: number;
  archiveKey: string;
  path: string;
  name?: string;
  namespace?: string;
  overwrite: boolean;
  overrideParams: Record<string, unknown>;
}

const VISIBILITIES = new Set(['private', 'internal', 'public']);

/**
 * Creates the project (through identity, as the importer, in the namespace asked for; with
 * `overwrite`, replacing a project at that path the importer may admin), records the
 * import as scheduled and publishes `transfer.import.requested` in the same transaction.
 */
export async function scheduleImport(db: Knex, projects: ProjectClient, req: ImportRequest): Promise<{ project: ProjectIdentity; row: ImportRow }> {
  const o = req.overrideParams;
  const project = await projects.createProject({
    user_id: req.userId, path: req.path, name: req.name ?? (typeof o.name === 'string' ? o.name : undefined), namespace: req.namespace,
    description: typeof o.description === 'string' ? o.description : undefined,
    visibility: typeof o.visibility === 'string' && VISIBILITIES.has(o.visibility) ? o.visibility : undefined,
    overwrite: req.overwrite,
  });
  const row = await db.transaction(async (trx) => {
    const created = await importStore.insert(trx, {
      project_id: project.id, user_id: req.userId, correlation_id: randomUUID(), archive_key: req.archiveKey,
      path: req.path, name: req.name ?? null, overwrite: req.overwrite, override_params: req.overrideParams,
    });
    const data: ImportRequestedV1 = { import_id: created.id, project_id: project.id, user_id: req.userId, archive_key: req.archiveKey };
    await emit(trx, PRODUCER, TransferImportEvents.requested, data);
    return created;
  });
  return { project, row };
}
