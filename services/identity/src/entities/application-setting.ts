import type { ApplicationSettings } from '../settings/application-settings';

/** GitLab's `ApplicationSetting` entity, for the settings identity keeps (arrays as arrays). */
export function toApplicationSetting(s: ApplicationSettings): Record<string, unknown> {
  return {
    id: 1,
    allow_local_requests_from_web_hooks_and_services: s.allow_local_requests_from_web_hooks_and_services,
    allow_local_requests_from_system_hooks: s.allow_local_requests_from_system_hooks,
    outbound_local_requests_whitelist: s.outbound_local_requests_whitelist,
    max_export_size: s.max_export_size,
    max_import_size: s.max_import_size,
    max_attachment_size: s.max_attachment_size,
    notes_create_limit: s.notes_create_limit,
    project_export_limit: s.project_export_limit,
    project_download_export_limit: s.project_download_export_limit,
    project_import_limit: s.project_import_limit,
  };
}
