import { createHash } from 'node:crypto';

/** Every registry object lives under this prefix. */
export const STORAGE_ROOT = 'conan';

/** GitLab's disk layout prefix of a project: `<aa>/<bb>/<sha256(project id)>`. */
export function projectDiskPath(projectId: number): string {
  const h = createHash('sha256').update(String(projectId)).digest('hex');
  return `${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`;
}

/** The storage-relative path GitLab reports as `file.url`. */
export function fileUrlPath(projectId: number, packageId: number, fileId: number, fileName: string): string {
  return `/${projectDiskPath(projectId)}/packages/${packageId}/files/${fileId}/${fileName}`;
}

/** The object key of a file: unique per upload, so a replaced file is never overwritten in place. */
export function fileStorageKey(projectId: number, packageId: number, fileId: number, fileName: string): string {
  return `${STORAGE_ROOT}${fileUrlPath(projectId, packageId, fileId, fileName)}`;
}

/** The prefix holding every object of a project. */
export function projectStoragePrefix(projectId: number): string {
  return `${STORAGE_ROOT}/${projectDiskPath(projectId)}/`;
}

/** `file.url` of a stored key (the key without the root). */
export function urlOfKey(key: string): string {
  return key.startsWith(`${STORAGE_ROOT}/`) ? key.slice(STORAGE_ROOT.length) : `/${key}`;
}
