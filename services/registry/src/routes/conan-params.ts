import type { Request } from 'express';
import type { ProjectScope } from '@anvil/auth';
import { BadRequestError, ctx, NotFoundError, ParamError } from '@anvil/http';
import {
  CONAN_FILES,
  fullPathFromUsername,
  NONE_VALUE,
  PACKAGE_REFERENCE_RE,
  PACKAGE_REFERENCE_V1_RE,
  type RecipeRef,
  recipeRefErrors,
  REVISION_V1_RE,
  REVISION_V2_RE,
  soleBlankField,
} from '../conan/reference';

/** Whether a route is mounted at instance level (`/packages/conan/v1`) or under `/projects/:id`. */
export type Level = 'instance' | 'project';
/** Which protocol's revision rules apply. */
export type Protocol = 'v1' | 'v2';

/** Path parameters a Conan route may carry beyond the recipe. */
export interface ConanParams {
  ref: RecipeRef;
  recipeRevision?: string;
  packageReference?: string;
  packageRevision?: string;
  fileName?: string;
}

/** Which extra parameters a route declares, in the order Grape validates them. */
export interface ParamSpec {
  recipeRevision?: boolean;
  packageReference?: boolean;
  packageRevision?: boolean;
  fileName?: boolean;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function extraErrors(p: Record<string, string | undefined>, spec: ParamSpec, protocol: Protocol): string[] {
  const errs: string[] = [];
  const rev = protocol === 'v2' ? REVISION_V2_RE : REVISION_V1_RE;
  if (spec.recipeRevision && !rev.test(p.recipe_revision ?? '')) errs.push('recipe_revision is invalid');
  const prefRe = protocol === 'v2' ? PACKAGE_REFERENCE_RE : PACKAGE_REFERENCE_V1_RE;
  if (spec.packageReference && !prefRe.test(p.conan_package_reference ?? '')) errs.push('conan_package_reference is invalid');
  if (spec.packageRevision && protocol === 'v2' && !REVISION_V2_RE.test(p.package_revision ?? '')) errs.push('package_revision is invalid');
  if (spec.fileName && !CONAN_FILES.includes(p.file_name ?? '')) errs.push('file_name does not have a valid value');
  return errs;
}

/**
 * Validates a Conan route's path parameters as GitLab does: Grape errors first (`{"error": "a is
 * invalid, b is invalid"}`), then the username/channel rule (`_` username at instance level → 404,
 * one of them `_` alone → 400 "<field> can't be solely blank").
 */
export function conanParams(req: Request, level: Level, protocol: Protocol, spec: ParamSpec = {}): ConanParams {
  const p = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, str(v)]));
  const ref = { name: p.package_name ?? '', version: p.package_version ?? '', username: p.package_username ?? '', channel: p.package_channel ?? '' };
  const errs = [...recipeRefErrors(ref), ...extraErrors(p, spec, protocol)];
  if (errs.length) throw new ParamError(errs.join(', '));
  if (level === 'instance' && ref.username === NONE_VALUE) throw new NotFoundError();
  const blank = soleBlankField(ref.username, ref.channel);
  if (blank) throw new BadRequestError(`${blank} can't be solely blank`);
  return {
    ref,
    recipeRevision: spec.recipeRevision ? p.recipe_revision : undefined,
    packageReference: spec.packageReference ? p.conan_package_reference : undefined,
    packageRevision: spec.packageRevision ? p.package_revision : undefined,
    fileName: spec.fileName ? p.file_name : undefined,
  };
}

/**
 * The project a recipe route acts on: the gateway-resolved `:id` project, or at instance level the
 * project the username names (the gateway resolves it; it must match). Missing → 404 Project Not Found.
 */
export function recipeProject(req: Request, level: Level, ref: RecipeRef): ProjectScope {
  const project = ctx(req).project;
  if (!project) throw new NotFoundError('Project');
  if (level === 'instance' && project.path_with_namespace.toLowerCase() !== fullPathFromUsername(ref.username).toLowerCase()) {
    throw new NotFoundError('Project');
  }
  return project;
}

/** The project of a project-level route that is not about one recipe (search, users). */
export function routeProject(req: Request): ProjectScope {
  const project = ctx(req).project;
  if (!project) throw new NotFoundError('Project');
  return project;
}
