/**
 * Conan recipe and package references: the grammar of their parts, the `+`-joined username that names
 * a project, and the string forms clients see. Pure: no I/O, no HTTP.
 * Spec: shared/spec/registry-and-transfer.md ("Recipe reference"); GitLab's `lib/gitlab/regex/packages.rb`.
 */

/** The revision every v1 operation uses (and v2 refuses). */
export const V1_REVISION = '0';

/** The value Conan uses for an absent username or channel. */
export const NONE_VALUE = '_';

/** File names a recipe may hold. */
export const RECIPE_FILES = ['conanfile.py', 'conanmanifest.txt', 'conan_sources.tgz', 'conan_export.tgz'] as const;
/** File names a package (binary) may hold. */
export const PACKAGE_FILES = ['conaninfo.txt', 'conanmanifest.txt', 'conan_package.tgz'] as const;
/** Every accepted file name (a recipe route accepts package names and the other way round at the param layer). */
export const CONAN_FILES: readonly string[] = [...new Set<string>([...RECIPE_FILES, ...PACKAGE_FILES])];

export type FileType = 'recipe' | 'package';

const NAME = '[a-zA-Z0-9_][a-zA-Z0-9_+.-]{1,49}';
/** Name and version: 2-50 characters, first `[A-Za-z0-9_]`, rest `[A-Za-z0-9_+.-]`. */
export const COMPONENT_RE = new RegExp(`^${NAME}$`);
/** Username and channel: a component, or exactly `_`. */
export const USER_CHANNEL_RE = new RegExp(`^(_|${NAME})$`);
/** v2 revisions: an MD5 (32 hex) or a SHA-1 (40 hex). */
export const REVISION_V2_RE = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{40})$/;
/** v1 revisions: always `0`. */
export const REVISION_V1_RE = /^0$/;
/** v2 package reference (package id). */
export const PACKAGE_REFERENCE_RE = /^[A-Za-z0-9]+$/;
/** v1 package reference: any single path segment. */
export const PACKAGE_REFERENCE_V1_RE = /^[^/]+$/;

/** The four parts of a recipe reference. */
export interface RecipeRef {
  name: string;
  version: string;
  username: string;
  channel: string;
}

/** Whether a name or version is well-formed. */
export function isComponent(s: unknown): s is string {
  return typeof s === 'string' && COMPONENT_RE.test(s);
}

/** Whether a username or channel is well-formed. */
export function isUserOrChannel(s: unknown): s is string {
  return typeof s === 'string' && USER_CHANNEL_RE.test(s);
}

/** Whether `file` is a recipe file name (`conanmanifest.txt` is both). */
export function isRecipeFile(file: string): boolean {
  return (RECIPE_FILES as readonly string[]).includes(file);
}

/** Whether `file` is a package file name. */
export function isPackageFile(file: string): boolean {
  return (PACKAGE_FILES as readonly string[]).includes(file);
}

/**
 * Grape-style problems with the recipe parts, in declaration order (`package_name is invalid`, ...);
 * empty when all four are valid.
 */
export function recipeRefErrors(ref: Partial<Record<keyof RecipeRef, unknown>>): string[] {
  const errs: string[] = [];
  if (!isComponent(ref.name)) errs.push('package_name is invalid');
  if (!isComponent(ref.version)) errs.push('package_version is invalid');
  if (!isUserOrChannel(ref.username)) errs.push('package_username is invalid');
  if (!isUserOrChannel(ref.channel)) errs.push('package_channel is invalid');
  return errs;
}

/**
 * Which of username/channel is `_` alone (they must be both `_` or neither), or null when fine.
 * GitLab answers `400 Bad request - <field> can't be solely blank`.
 */
export function soleBlankField(username: string, channel: string): 'username' | 'channel' | null {
  const u = username === NONE_VALUE;
  const c = channel === NONE_VALUE;
  if (u === c) return null;
  return u ? 'username' : 'channel';
}

/** `name/version@username/channel`. */
export function recipeString(ref: RecipeRef): string {
  return `${ref.name}/${ref.version}@${ref.username}/${ref.channel}`;
}

/** `name/version@username/channel#rrev:pref`, the reference of a package of one recipe revision. */
export function packageRefString(ref: RecipeRef, recipeRevision: string, packageReference: string): string {
  return `${recipeString(ref)}#${recipeRevision}:${packageReference}`;
}

/** The project full path a Conan username names (`group+sub+proj` → `group/sub/proj`). */
export function fullPathFromUsername(username: string): string {
  return username.replace(/\+/g, '/');
}

/** The Conan username of a project (`group/sub/proj` → `group+sub+proj`). */
export function usernameFromFullPath(fullPath: string): string {
  return fullPath.replace(/\//g, '+');
}

/**
 * Parses `name/version[@username/channel][#rrev][:pref[#prev]]` as clients write references.
 * Returns null when it is not a well-formed reference. A missing `@user/channel` gives `_`/`_`.
 */
export function parseReference(s: string): (RecipeRef & { recipeRevision?: string; packageReference?: string; packageRevision?: string }) | null {
  const m = /^([^/@#:]+)\/([^/@#:]+)(?:@([^/@#:]+)\/([^/@#:]+))?(?:#([^/@#:]+))?(?::([^/@#:]+)(?:#([^/@#:]+))?)?$/.exec(s);
  if (!m) return null;
  const ref = { name: m[1], version: m[2], username: m[3] ?? NONE_VALUE, channel: m[4] ?? NONE_VALUE };
  if (recipeRefErrors(ref).length || soleBlankField(ref.username, ref.channel)) return null;
  const out: RecipeRef & { recipeRevision?: string; packageReference?: string; packageRevision?: string } = { ...ref };
  if (m[5] !== undefined) out.recipeRevision = m[5];
  if (m[6] !== undefined) {
    if (!PACKAGE_REFERENCE_RE.test(m[6])) return null;
    out.packageReference = m[6];
  }
  if (m[7] !== undefined) out.packageRevision = m[7];
  return out;
}
