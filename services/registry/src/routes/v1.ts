import type { Request, Router } from 'express';
import type { ProjectScope } from '@anvil/auth';
import { ctx } from '@anvil/http';
import { authorizeDestroy, authorizeRead, callerOf } from '../auth/policy';
import { type Family, PACKAGE_REFERENCE, RECIPE } from '../conan/path-params';
import { type RecipeRef, V1_REVISION } from '../conan/reference';
import { toManifest, toSnapshot } from '../entities/files';
import { toPackageRecord } from '../entities/package';
import { conanFinder } from '../packages/conan-finder';
import { deletePackage } from '../packages/delete-service';
import { packageStore } from '../packages/package-store';
import { type Level, recipeScope } from './conan-params';
import { notFoundManifest, uploadUrls } from './upload-urls';
import { R, type RouteDeps } from './route-deps';

/** Conan 2 refuses a remote whose v1 ping lacks `revisions` (client reference item 25). */
export const SERVER_CAPABILITIES = 'revisions';

/** The v1 file URL prefix of a recipe, absolute, at the level the request came in on. */
export function v1FilesBase(req: Request, level: Level, project: ProjectScope, ref: RecipeRef): string {
  const prefix = level === 'project' ? `/api/v4/projects/${project.id}/packages/conan/v1` : '/api/v4/packages/conan/v1';
  return `${ctx(req).base}${prefix}/files/${ref.name}/${ref.version}/${ref.username}/${ref.channel}/${V1_REVISION}`;
}

/** A v1 read route's parameters, its project (read access checked), and the package when there is one. */
async function readScope<F extends Family>(req: Request, deps: RouteDeps, level: Level, family: F) {
  const s = recipeScope(req, level, 'v1', family);
  authorizeRead(callerOf(ctx(req)), s.project);
  return { ...s, pkg: await packageStore.find(deps.registry.db, s.project.id, s.ref) };
}

/** The v1 recipe routes (`C`, `C/digest`, `C/download_urls`, `C/upload_urls`, `DELETE C`) and their package variants. */
export function mountV1Recipes(router: Router, deps: RouteDeps, level: Level): void {
  const db = deps.registry.db;
  const recipeFiles = async (req: Request) => {
    const s = await readScope(req, deps, level, RECIPE);
    return { ...s, files: await conanFinder.files(db, await conanFinder.v1RecipeSlot(db, s.pkg)) };
  };
  const packageFiles = async (req: Request) => {
    const s = await readScope(req, deps, level, PACKAGE_REFERENCE);
    return { ...s, files: await conanFinder.files(db, await conanFinder.v1PackageSlot(db, s.pkg, s.packageReference)) };
  };

  // GET C — GitLab: Conan v1, "Retrieve a recipe snapshot"
  router.get(R, async (req, res) => {
    res.json(toSnapshot((await recipeFiles(req)).files));
  });

  // GET C/packages/:conan_package_reference — GitLab: Conan v1, "Retrieve a package snapshot"
  router.get(`${R}/packages/:conan_package_reference`, async (req, res) => {
    res.json(toSnapshot((await packageFiles(req)).files));
  });

  // GET C/digest, C/download_urls — GitLab: Conan v1, "Retrieve a recipe manifest" / "List all recipe download URLs"
  router.get([`${R}/digest`, `${R}/download_urls`], async (req, res) => {
    const { files, project, ref } = await recipeFiles(req);
    const base = v1FilesBase(req, level, project, ref);
    res.json(notFoundManifest(toManifest(files, (f) => `${base}/export/${f}`)));
  });

  // GET C/packages/:ref/digest, C/packages/:ref/download_urls — GitLab: Conan v1, package manifest / download URLs
  router.get([`${R}/packages/:conan_package_reference/digest`, `${R}/packages/:conan_package_reference/download_urls`], async (req, res) => {
    const { files, project, ref, packageReference } = await packageFiles(req);
    const base = v1FilesBase(req, level, project, ref);
    res.json(notFoundManifest(toManifest(files, (f) => `${base}/package/${packageReference}/${V1_REVISION}/${f}`)));
  });

  // POST C/upload_urls — GitLab: Conan v1, "List all recipe upload URLs"
  router.post(`${R}/upload_urls`, async (req, res) => {
    const { project, ref } = await readScope(req, deps, level, RECIPE);
    const base = v1FilesBase(req, level, project, ref);
    res.status(200).json(await uploadUrls(req, 'recipe', (f) => `${base}/export/${f}`));
  });

  // POST C/packages/:ref/upload_urls — GitLab: Conan v1, "List all package upload URLs"
  router.post(`${R}/packages/:conan_package_reference/upload_urls`, async (req, res) => {
    const { project, ref, packageReference } = await readScope(req, deps, level, PACKAGE_REFERENCE);
    const base = v1FilesBase(req, level, project, ref);
    res.status(200).json(await uploadUrls(req, 'package', (f) => `${base}/package/${packageReference}/${V1_REVISION}/${f}`));
  });

  // DELETE C — GitLab: Conan v1, "Delete a recipe and package"
  router.delete(R, async (req, res) => {
    const { project, ref } = recipeScope(req, level, 'v1', RECIPE);
    authorizeDestroy(callerOf(ctx(req)), project);
    const pkg = await conanFinder.package(db, project.id, ref);
    await deletePackage(deps.registry, pkg);
    res.status(200).json(toPackageRecord(pkg));
  });
}
