import type { Knex } from 'knex';
import { emit, type RelationImportRequestedV1, TransferRelationImportEvents } from '@anvil/events';
import { HttpError } from '@anvil/http';
import { PRODUCER } from '../exports/export-service';
import { type RelationImportRow, relationImportStore } from './relation-import-store';

/** What `POST /projects/import-relation` asks for. */
export interface RelationImportRequest {
  projectId: number;
  projectPath: string;
  relation: string;
  userId: number;
  archiveKey: string;
}

/**
 * Records the tracker (created) and publishes `transfer.relation-import.requested` in one
 * transaction, holding the project's advisory lock so two requests cannot both pass the
 * one-import-at-a-time check; a running import answers GitLab's 409.
 */
export async function requestRelationImport(db: Knex, req: RelationImportRequest): Promise<RelationImportRow> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [0x72656c, req.projectId]);
    if (await relationImportStore.busy(trx, req.projectId)) throw new HttpError(409, { message: 'A relation import is already in progress for this project' });
    const row = await relationImportStore.insert(trx, {
      project_id: req.projectId, project_path: req.projectPath, relation: req.relation as RelationImportRow['relation'], user_id: req.userId, archive_key: req.archiveKey,
    });
    const data: RelationImportRequestedV1 = { relation_import_id: Number(row.id), project_id: req.projectId, user_id: req.userId, relation: req.relation, archive_key: req.archiveKey };
    await emit(trx, PRODUCER, TransferRelationImportEvents.requested, data);
    return row;
  });
}
