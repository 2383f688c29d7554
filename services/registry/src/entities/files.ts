import type { PackageFile } from '../packages/types';

/** v2 `RR/files` and `PRR/files`: `{files: {<file_name>: {}}}`. */
export function toFilesList(files: PackageFile[]): { files: Record<string, Record<string, never>> } {
  const out: Record<string, Record<string, never>> = {};
  for (const f of files) out[f.fileName] = {};
  return { files: out };
}

/** v1 recipe or package snapshot: `{<file_name>: <md5>}`. */
export function toSnapshot(files: PackageFile[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) out[f.fileName] = f.md5;
  return out;
}

/** v1 recipe or package manifest (`digest`, `download_urls`): `{<file_name>: <url>}`. */
export function toManifest(files: PackageFile[], url: (fileName: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) out[f.fileName] = url(f.fileName);
  return out;
}
