import type { ProjectIdentity } from '../identity/project-client';
import type { FailureRow, ImportRow } from '../imports/import-store';

/** `API::Entities::ProjectImportFailedRelation` (the message redacted, as current GitLab does). */
function toFailedRelation(f: FailureRow): Record<string, unknown> {
  return {
    id: Number(f.id), created_at: f.created_at.toISOString(), exception_class: f.exception_class, exception_message: null,
    source: f.source, relation_name: f.relation_name, line_number: f.line_number,
  };
}

/**
 * `API::Entities::ProjectImportStatus`: the project's identity, `import_status`, `import_type`,
 * `correlation_id`, `failed_relations` (at most 100), `import_error`, `stats` (null: not a code-host
 * import), and `relation_counts`, the records imported so far per relation (progress while it runs).
 */
export function toProjectImportStatus(project: ProjectIdentity, row: ImportRow | null, failures: FailureRow[]): Record<string, unknown> {
  return {
    id: project.id, description: project.description, name: project.name, name_with_namespace: project.name_with_namespace,
    path: project.path, path_with_namespace: project.path_with_namespace, created_at: project.created_at,
    import_status: row?.status ?? 'none',
    import_type: row?.import_type ?? null,
    correlation_id: row?.correlation_id ?? null,
    failed_relations: failures.map(toFailedRelation),
    import_error: row?.status === 'failed' ? row.error : null,
    stats: null,
    relation_counts: row?.counts ?? {},
  };
}
