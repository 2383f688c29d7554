/**
 * The path parameters of the Conan routes, parsed and typed by route family: a recipe reference
 * (every route), then a recipe revision, a package reference, a package revision and a file name as
 * the route declares them. Problems come back in Grape's order, as GitLab reports them. Pure: no
 * I/O, no HTTP. Spec: shared/spec/registry-and-transfer.md ("Recipe reference", parameters table).
 */
import {
  CONAN_FILES,
  NONE_VALUE,
  PACKAGE_REFERENCE_RE,
  PACKAGE_REFERENCE_V1_RE,
  type RecipeRef,
  recipeRefErrors,
  REVISION_V1_RE,
  REVISION_V2_RE,
  soleBlankField,
} from './reference';

/** Whether a route is mounted at instance level (`/packages/conan/v1`) or under `/projects/:id`. */
export type Level = 'instance' | 'project';
/** Which protocol's revision rules apply. */
export type Protocol = 'v1' | 'v2';

/** The parameters a route may declare beyond the recipe, and the path segment each is read from. */
const SEGMENTS = {
  recipeRevision: 'recipe_revision',
  packageReference: 'conan_package_reference',
  packageRevision: 'package_revision',
  fileName: 'file_name',
} as const;
type Extra = keyof typeof SEGMENTS;

/** Which extra parameters a route family declares. */
export type Family = Readonly<Partial<Record<Extra, true>>>;

/** A recipe route: the reference alone. */
export const RECIPE = {} as const satisfies Family;
/** A recipe revision route (v2 `RR`, v1 `files/.../0`). */
export const REVISION = { recipeRevision: true } as const satisfies Family;
/** A v1 package route: a package reference without a revision (`C/packages/:ref`). */
export const PACKAGE_REFERENCE = { packageReference: true } as const satisfies Family;
/** A package reference under a recipe revision (v2 `PR`). */
export const REVISION_PACKAGE_REFERENCE = { recipeRevision: true, packageReference: true } as const satisfies Family;
/** A package revision (v2 `PRR`, v1 `files/.../package/:ref/:prev`). */
export const PACKAGE_REVISION = { recipeRevision: true, packageReference: true, packageRevision: true } as const satisfies Family;
/** A recipe file (v2 `RR/files/:file_name`, v1 `files/.../0/export/:file_name`). */
export const REVISION_FILE = { ...REVISION, fileName: true } as const satisfies Family;
/** A package file (v2 `PRR/files/:file_name`, v1 `files/.../package/:ref/:prev/:file_name`). */
export const PACKAGE_REVISION_FILE = { ...PACKAGE_REVISION, fileName: true } as const satisfies Family;

/** What a route of family `F` is handed: the recipe reference and each declared parameter, as strings. */
export type ConanParams<F extends Family> = { ref: RecipeRef } & { [K in keyof F & Extra]: string };

/** Why a path was refused, in GitLab's order of checks. */
export type ParamProblem =
  | { kind: 'invalid'; message: string }
  | { kind: 'unknown-username' }
  | { kind: 'solely-blank'; field: 'username' | 'channel' };

/** The parsed parameters, or the first problem GitLab would answer with. */
export type ParamsResult<F extends Family> = { ok: true; params: ConanParams<F> } | { ok: false; problem: ParamProblem };

function extraErrors(raw: Readonly<Record<string, string | undefined>>, family: Family, protocol: Protocol): string[] {
  const errs: string[] = [];
  const rev = protocol === 'v2' ? REVISION_V2_RE : REVISION_V1_RE;
  const pref = protocol === 'v2' ? PACKAGE_REFERENCE_RE : PACKAGE_REFERENCE_V1_RE;
  if (family.recipeRevision && !rev.test(raw.recipe_revision ?? '')) errs.push('recipe_revision is invalid');
  if (family.packageReference && !pref.test(raw.conan_package_reference ?? '')) errs.push('conan_package_reference is invalid');
  // GitLab declares no rule for a v1 package revision: any segment is taken (and stored under 0)
  if (family.packageRevision && protocol === 'v2' && !REVISION_V2_RE.test(raw.package_revision ?? '')) errs.push('package_revision is invalid');
  if (family.fileName && !CONAN_FILES.includes(raw.file_name ?? '')) errs.push('file_name does not have a valid value');
  return errs;
}

/**
 * Parses a Conan route's path segments (`package_name`, ..., `file_name`) for family `F`: Grape
 * errors first (all of them, `a is invalid, b is invalid`), then the `_` username at instance level
 * (it names no project), then username/channel where only one of them is `_`. On success every
 * parameter the family declares is a well-formed string.
 */
export function parseConanParams<F extends Family>(raw: Readonly<Record<string, string | undefined>>, level: Level, protocol: Protocol, family: F): ParamsResult<F> {
  const ref = { name: raw.package_name ?? '', version: raw.package_version ?? '', username: raw.package_username ?? '', channel: raw.package_channel ?? '' };
  const errs = [...recipeRefErrors(ref), ...extraErrors(raw, family, protocol)];
  if (errs.length) return { ok: false, problem: { kind: 'invalid', message: errs.join(', ') } };
  if (level === 'instance' && ref.username === NONE_VALUE) return { ok: false, problem: { kind: 'unknown-username' } };
  const blank = soleBlankField(ref.username, ref.channel);
  if (blank) return { ok: false, problem: { kind: 'solely-blank', field: blank } };
  const params: Record<string, unknown> = { ref };
  for (const key of Object.keys(SEGMENTS) as Extra[]) if (family[key]) params[key] = raw[SEGMENTS[key]];
  return { ok: true, params: params as ConanParams<F> };
}
