/**
 * `conaninfo.txt` → the package reference metadata GitLab stores and serves from `R/search`
 * (`settings`, `options`, `requires`, `recipe_hash`). Both Conan 1 (indented) and Conan 2 (flat)
 * layouts parse. Pure. Spec: "Package reference metadata"; GitLab's MetadataExtractionService.
 */

/** The stored metadata of one package reference; a section is absent when the file has none. */
export interface ConanInfo {
  settings?: Record<string, string>;
  options?: Record<string, string>;
  /** Key: a dependency reference; value: always null. */
  requires?: Record<string, null>;
  recipe_hash?: string;
}

export type ConanInfoResult = { ok: true; info: ConanInfo } | { ok: false; error: string };

/** Largest metadata GitLab keeps (characters of its JSON). */
export const MAX_INFO_JSON_LENGTH = 20_000;

const SECTION_RE = /^\[(\w{1,50})\]$/;
const ALLOWED = new Set(['settings', 'options', 'requires', 'recipe_hash']);

type Section = 'settings' | 'options' | 'requires' | 'recipe_hash';

class InfoError extends Error {}

function keyValue(line: string, into: Record<string, string>): void {
  const eq = line.indexOf('=');
  if (eq < 0) throw new InfoError(`Invalid key-value line: ${line}`);
  const key = line.slice(0, eq).trim();
  const value = line.slice(eq + 1).trim();
  if (!key || !value) throw new InfoError(`Invalid key-value line: ${line}`);
  into[key] = value;
}

function addLine(info: ConanInfo, section: Section, line: string): void {
  if (section === 'recipe_hash') {
    if (info.recipe_hash !== undefined) throw new InfoError('The recipe_hash section cannot have multiple lines');
    info.recipe_hash = line;
  } else if (section === 'requires') {
    (info.requires ??= {})[line] = null;
  } else {
    keyValue(line, (info[section] ??= {}));
  }
}

/** Parses the text of a `conaninfo.txt`; unknown sections are skipped, malformed lines are an error. */
export function parseConanInfo(text: string): ConanInfoResult {
  const info: ConanInfo = {};
  let section: string | null = null;
  try {
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (!line) continue;
      const header = SECTION_RE.exec(line);
      if (header) {
        section = header[1];
        continue;
      }
      if (line.startsWith('[')) throw new InfoError(`Invalid section header: ${line}`);
      if (section && ALLOWED.has(section)) addLine(info, section as Section, line);
    }
  } catch (e) {
    if (e instanceof InfoError) return { ok: false, error: e.message };
    throw e;
  }
  if (JSON.stringify(info).length > MAX_INFO_JSON_LENGTH) return { ok: false, error: 'conaninfo.txt file too large' };
  return { ok: true, info };
}
