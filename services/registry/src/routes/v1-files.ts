import type { Router } from 'express';
import { ctx } from '@anvil/http';
import { authorizeRead, callerOf } from '../auth/policy';
import { PACKAGE_REVISION_FILE, REVISION_FILE } from '../conan/path-params';
import { V1_REVISION } from '../conan/reference';
import { type Level, recipeScope } from './conan-params';
import { receiveFile, serveFile } from './file-transfer';
import type { RouteDeps } from './route-deps';

const FILES = '/files/:package_name/:package_version/:package_username/:package_channel/:recipe_revision';
const EXPORT = `${FILES}/export/:file_name`;
const PACKAGE = `${FILES}/package/:conan_package_reference/:package_revision/:file_name`;

/** The v1 file routes: the URLs `download_urls` and `upload_urls` hand out (revisions always `0`). */
export function mountV1Files(router: Router, deps: RouteDeps, level: Level): void {
  // GET files/.../0/export/:file_name — GitLab: Conan v1, "Retrieve a recipe file"
  router.get(EXPORT, async (req, res) => {
    const { project, ref, fileName } = recipeScope(req, level, 'v1', REVISION_FILE);
    authorizeRead(callerOf(ctx(req)), project);
    await serveFile(req, res, deps, project, ref, { protocol: 'v1', kind: 'recipe' }, fileName);
  });

  // PUT files/.../0/export/:file_name — GitLab: Conan v1, "Upload a recipe file"
  router.put(EXPORT, async (req, res) => {
    const { project, ref, fileName } = recipeScope(req, level, 'v1', REVISION_FILE);
    await receiveFile(req, res, deps, { project, ref, target: { kind: 'recipe', recipeRevision: V1_REVISION }, fileName });
  });

  // GET files/.../0/package/:ref/:package_revision/:file_name — GitLab: Conan v1, "Retrieve a package file"
  router.get(PACKAGE, async (req, res) => {
    const { project, ref, packageReference, fileName } = recipeScope(req, level, 'v1', PACKAGE_REVISION_FILE);
    authorizeRead(callerOf(ctx(req)), project);
    await serveFile(req, res, deps, project, ref, { protocol: 'v1', kind: 'package', packageReference }, fileName);
  });

  // PUT files/.../0/package/:ref/:package_revision/:file_name — GitLab: Conan v1, "Upload a package file"
  router.put(PACKAGE, async (req, res) => {
    const { project, ref, packageReference, fileName } = recipeScope(req, level, 'v1', PACKAGE_REVISION_FILE);
    const target = { kind: 'package' as const, recipeRevision: V1_REVISION, packageReference, packageRevision: V1_REVISION };
    await receiveFile(req, res, deps, { project, ref, target, fileName });
  });
}
