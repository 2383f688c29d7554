/**
 * `conanmanifest.txt`: a first line with the export time (epoch seconds), then `path: md5` lines.
 * Pure. Conan's `FileTreeManifest.loads`.
 */

/** A parsed manifest: when it was made and the MD5 of each file it lists. */
export interface ConanManifest {
  time: number;
  files: Record<string, string>;
}

export type ConanManifestResult = { ok: true; manifest: ConanManifest } | { ok: false; error: string };

const MD5_RE = /^[0-9a-f]{32}$/i;

/** Parses a manifest's text; a missing or non-numeric time, or a line that is not `path: md5`, is an error. */
export function parseConanManifest(text: string): ConanManifestResult {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return { ok: false, error: 'empty manifest' };
  if (!/^\d+$/.test(lines[0])) return { ok: false, error: `invalid manifest time: ${lines[0]}` };
  const files: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const sep = line.lastIndexOf(': ');
    if (sep <= 0) return { ok: false, error: `invalid manifest line: ${line}` };
    const path = line.slice(0, sep).trim();
    const md5 = line.slice(sep + 2).trim();
    if (!path || !MD5_RE.test(md5)) return { ok: false, error: `invalid manifest line: ${line}` };
    files[path] = md5.toLowerCase();
  }
  return { ok: true, manifest: { time: Number(lines[0]), files } };
}

/** The manifest as Conan writes it: time, then `path: md5` lines sorted by path, newline-terminated. */
export function formatConanManifest(m: ConanManifest): string {
  const body = Object.keys(m.files)
    .sort()
    .map((p) => `${p}: ${m.files[p]}\n`)
    .join('');
  return `${m.time}\n${body}`;
}

/**
 * The MD5 Conan derives a revision from in its default `hash` revision mode: the sorted
 * `path: md5` lines joined with newlines, plus a final newline.
 */
export function manifestSummaryHash(m: ConanManifest, md5: (s: string) => string): string {
  const lines = Object.keys(m.files)
    .sort()
    .map((p) => `${p}: ${m.files[p]}`);
  lines.push('');
  return md5(lines.join('\n'));
}
