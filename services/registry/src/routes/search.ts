import type { Router } from 'express';
import { ctx, p, params } from '@anvil/http';
import { authorizeRead, callerOf } from '../auth/policy';
import { toPackageReferencesInfo, toSearchResults } from '../entities/search';
import { conanFinder } from '../packages/conan-finder';
import { packageReferenceStore } from '../packages/revision-store';
import { searchPackages } from '../packages/search-service';
import { RECIPE, REVISION } from '../conan/path-params';
import { type Level, type Protocol, recipeScope, routeProject } from './conan-params';
import { R, RR, type RouteDeps } from './route-deps';

const searchParams = params({ q: p.string().required(), ignorecase: p.boolean() });

/** `conans/search`, `R/search` and (v2) `RR/search`. */
export function mountSearch(router: Router, deps: RouteDeps, level: Level, protocol: Protocol): void {
  const db = deps.registry.db;

  // GET conans/search — GitLab: Conan shared endpoints, "Search for packages"
  router.get('/conans/search', async (req, res) => {
    const { q, ignorecase } = searchParams.parse(req);
    const caller = callerOf(ctx(req));
    const project = level === 'project' ? routeProject(req) : undefined;
    if (project) authorizeRead(caller, project);
    const pkgs = await searchPackages(db, deps.identity, caller, q, { project, ignoreCase: ignorecase !== false });
    res.json(toSearchResults(pkgs));
  });

  // GET R/search — GitLab: Conan shared endpoints, "Get package references metadata"
  router.get(`${R}/search`, async (req, res) => {
    const { ref, project } = recipeScope(req, level, protocol, RECIPE);
    authorizeRead(callerOf(ctx(req)), project);
    const pkg = await conanFinder.package(db, project.id, ref);
    res.json(toPackageReferencesInfo(await packageReferenceStore.list(db, { packageId: pkg.id })));
  });

  if (protocol !== 'v2') return;
  // GET RR/search — GitLab: Conan v2, "Get package references metadata for a recipe revision"
  router.get(`${RR}/search`, async (req, res) => {
    const { ref, recipeRevision, project } = recipeScope(req, level, protocol, REVISION);
    authorizeRead(callerOf(ctx(req)), project);
    const pkg = await conanFinder.package(db, project.id, ref);
    const rrev = await conanFinder.recipeRevision(db, pkg, recipeRevision);
    res.json(toPackageReferencesInfo(await packageReferenceStore.list(db, { recipeRevisionId: rrev.id })));
  });
}
