/**
 * GitLab's export archive layout and naming, as pure functions
 * (`lib/gitlab/import_export.rb`, `version_saver.rb`; see shared/reference/import-export.md).
 */

/** `Gitlab::ImportExport::VERSION`, written to `VERSION` without a trailing newline. */
export const EXPORT_VERSION = '0.2.4';

/** GitLab's export job states (`ProjectExportJob.status`). */
export type JobStatus = 'queued' | 'started' | 'finished' | 'failed';

/** What `export_status` answers. */
export type ExportStatus = 'none' | 'queued' | 'started' | 'finished' | 'failed' | 'regeneration_in_progress';

/** `Project#export_status(user)`: the first matching rule wins. */
export function exportStatus(job: JobStatus | null, archiveExists: boolean): ExportStatus {
  const running = job === 'queued' || job === 'started';
  if (running && archiveExists) return 'regeneration_in_progress';
  if (job === 'queued') return 'queued';
  if (job === 'started') return 'started';
  if (archiveExists) return 'finished';
  if (job === 'failed') return 'failed';
  return 'none';
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * `export_filename`: `<%Y-%m-%d_%H-%M-%3N>_<full path with / → _>`, cut to 51 characters, then
 * `_export.tar.gz` (minutes, then milliseconds: GitLab's format has no seconds).
 */
export function exportFilename(fullPath: string, at: Date): string {
  const stamp = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}_${pad(at.getUTCHours())}-${pad(at.getUTCMinutes())}-${pad(at.getUTCMilliseconds(), 3)}`;
  const base = `${stamp}_${fullPath.replace(/\//g, '_')}`.slice(0, 51);
  return `${base}_export.tar.gz`;
}

/** Storage prefix of an export job's parts (every key of the job starts with it). */
export function jobPrefix(jobId: string): string {
  return `exports/${jobId}/`;
}

/** Storage key of an export job's archive. */
export function archiveKey(jobId: string): string {
  return `exports/${jobId}.tar.gz`;
}

/** True for a part file an export may carry: `tree/project.json` or `tree/project/<relation>.ndjson`. */
export function isTreeFile(relative: string): boolean {
  return relative === 'tree/project.json' || /^tree\/project\/[a-z_]+\.ndjson$/.test(relative);
}
