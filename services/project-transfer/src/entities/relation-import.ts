import type { RelationImportRow } from '../imports/relation-import-store';

/** GitLab's `Entities::RelationImportTracker`. */
export function toRelationImport(row: RelationImportRow) {
  return {
    id: Number(row.id),
    project_path: row.project_path,
    relation: row.relation,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
