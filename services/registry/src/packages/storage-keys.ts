import { createHash, randomUUID } from 'node:crypto';

/** Every registry object lives under this prefix. */
export const STORAGE_ROOT = 'conan';

/** GitLab's disk layout prefix of a project: `<aa>/<bb>/<sha256(project id)>`. */
export function projectDiskPath(projectId: number): string {
  const h = createHash('sha256').update(String(projectId)).digest('hex');
  return `${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`;
}

/** The storage-relative path GitLab reports as `file.url` (`/<disk path>/packages/<package id>/files/<file id>/<name>`). */
export function fileUrlPath(projectId: number, packageId: number, fileId: number, fileName: string): string {
  return `/${projectDiskPath(projectId)}/packages/${packageId}/files/${fileId}/${fileName}`;
}

/**
 * The object key of an uploaded file: unique per upload (a replaced file is never overwritten in
 * place), in its project's directory, and known before the file's package and id are (so the upload
 * is moved into place and recorded without looking them up first). Files stored before this layout
 * keep their keys (`<root><file.url>`); `file.url` comes from the ids either way.
 */
export function fileStorageKey(projectId: number): string {
  return `${STORAGE_ROOT}/${projectDiskPath(projectId)}/objects/${randomUUID()}`;
}

/** The prefix holding every object of a project. */
export function projectStoragePrefix(projectId: number): string {
  return `${STORAGE_ROOT}/${projectDiskPath(projectId)}/`;
}
