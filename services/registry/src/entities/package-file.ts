import type { PackageFile } from '../packages/types';
import { fileUrlPath } from '../packages/storage-keys';

/**
 * The package file record a v1 or v2 upload answers with (GitLab serialises the database row):
 * every column, unset verification fields null, `file.url` GitLab's storage-relative path of it.
 */
export function toPackageFileRecord(f: PackageFile) {
  return {
    id: f.id,
    package_id: f.packageId,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
    size: f.size,
    file_store: f.fileStore,
    file_md5: f.md5,
    file_sha1: f.sha1,
    file_name: f.fileName,
    file: { url: fileUrlPath(f.projectId, f.packageId, f.id, f.fileName) },
    file_sha256: f.sha256,
    verification_retry_at: null,
    verified_at: null,
    verification_failure: null,
    verification_retry_count: null,
    verification_checksum: null,
    verification_state: 0,
    verification_started_at: null,
    status: 'default',
    file_final_path: null,
    project_id: f.projectId,
    new_file_path: null,
  };
}
