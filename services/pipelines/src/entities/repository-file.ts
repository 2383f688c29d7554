/** The Repository Files API's answers (lib/api/files.rb `blob_data`), keys in GitLab's order. */
import { createHash } from 'node:crypto';
import type { FoundFile } from '../repository/file-finder';

/** The metadata of a file (every key but `content`). */
export function toFileMetadata(f: FoundFile, ref: string | undefined) {
  return {
    file_name: f.fileName,
    file_path: f.filePath,
    size: f.content.length,
    encoding: 'base64',
    content_sha256: createHash('sha256').update(f.content).digest('hex'),
    ref: ref ?? null,
    blob_id: f.blobId,
    commit_id: f.commitId,
    last_commit_id: f.lastCommitId,
    execute_filemode: f.executable,
  };
}

/** The file: its metadata, then `content` in strict Base64. */
export function toFile(meta: ReturnType<typeof toFileMetadata>, content: Buffer) {
  return { ...meta, content: content.toString('base64') };
}

/** `set_http_headers`: each metadata key as `X-Gitlab-<Key-Parts>`, values as strings. */
export function metadataHeaders(f: FoundFile, ref: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(toFileMetadata(f, ref))) {
    const name = key.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-');
    out[`X-Gitlab-${name}`] = value === null ? '' : String(value);
  }
  return out;
}

/** Text (valid UTF-8 without NUL) is `text/plain`, anything else `application/octet-stream`. */
function rawType(content: Buffer): string {
  if (content.includes(0)) return 'application/octet-stream';
  return Buffer.from(content.toString('utf8'), 'utf8').equals(content) ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}

/** The raw blob's headers: no-cache, inline disposition with the file name, detected type. */
export function rawHeaders(f: FoundFile): Record<string, string> {
  const quoted = f.fileName.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '_');
  return {
    'Cache-Control': 'max-age=0, private, must-revalidate, no-store, no-cache',
    Pragma: 'no-cache',
    Expires: 'Fri, 01 Jan 1990 00:00:00 GMT',
    'Content-Disposition': `inline; filename="${quoted}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`,
    'Content-Type': rawType(f.content),
  };
}
