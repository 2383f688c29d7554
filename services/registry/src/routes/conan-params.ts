import type { Request } from 'express';
import type { ProjectScope } from '@anvil/auth';
import { BadRequestError, ctx, NotFoundError, ParamError } from '@anvil/http';
import { type ConanParams, type Family, type Level, parseConanParams, type Protocol } from '../conan/path-params';
import { fullPathFromUsername, type RecipeRef } from '../conan/reference';

export type { Level, Protocol } from '../conan/path-params';

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * A Conan route's path parameters for its family (see `conan/path-params`), or GitLab's refusal:
 * `400 {"error": "a is invalid, b is invalid"}`, a `_` username at instance level → 404, one of
 * username/channel `_` alone → `400 Bad request - <field> can't be solely blank`.
 */
export function conanParams<F extends Family>(req: Request, level: Level, protocol: Protocol, family: F): ConanParams<F> {
  const raw = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, str(v)]));
  const parsed = parseConanParams(raw, level, protocol, family);
  if (parsed.ok) return parsed.params;
  const problem = parsed.problem;
  if (problem.kind === 'invalid') throw new ParamError(problem.message);
  if (problem.kind === 'unknown-username') throw new NotFoundError();
  throw new BadRequestError(`${problem.field} can't be solely blank`);
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

/** A recipe route's parameters (`conanParams`) and the project it acts on (`recipeProject`). */
export function recipeScope<F extends Family>(req: Request, level: Level, protocol: Protocol, family: F): ConanParams<F> & { project: ProjectScope } {
  const params = conanParams(req, level, protocol, family);
  return { ...params, project: recipeProject(req, level, params.ref) };
}

/** The project of a project-level route that is not about one recipe (search, users). */
export function routeProject(req: Request): ProjectScope {
  const project = ctx(req).project;
  if (!project) throw new NotFoundError('Project');
  return project;
}
