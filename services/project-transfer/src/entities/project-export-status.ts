import type { ProjectIdentity } from '../identity/project-client';
import type { ExportStatus } from '../exports/export-layout';

/** `API::Entities::ProjectExportStatus`: the project's identity, `export_status`, and `_links` once finished. */
export function toProjectExportStatus(project: ProjectIdentity, status: ExportStatus, base: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: project.name_with_namespace,
    path: project.path,
    path_with_namespace: project.path_with_namespace,
    created_at: project.created_at,
    export_status: status,
  };
  if (status === 'finished') {
    out._links = {
      api_url: `${base}/api/v4/projects/${project.id}/export/download`,
      web_url: `${base}/${project.path_with_namespace}/download_export`,
    };
  }
  return out;
}
