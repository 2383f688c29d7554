import type { Request, Router } from 'express';
import { checkUnmodifiedSince, ctx, NotFoundError } from '@anvil/http';
import { authorizeDestroy, authorizeRead, callerOf } from '../auth/policy';
import { type Family, PACKAGE_REVISION, PACKAGE_REVISION_FILE, RECIPE, REVISION, REVISION_FILE, REVISION_PACKAGE_REFERENCE } from '../conan/path-params';
import { packageRefString, recipeString } from '../conan/reference';
import { toFilesList } from '../entities/files';
import { toRevisionEntity, toRevisionsList } from '../entities/revision';
import { conanFinder } from '../packages/conan-finder';
import { deletePackageRevision, deleteRecipeRevision } from '../packages/delete-service';
import { recipeRevisionStore } from '../packages/revision-store';
import { recipeScope } from './conan-params';
import { receiveFile, serveFile } from './file-transfer';
import { PR, PRR, R, RR, type RouteDeps } from './route-deps';

/** The v2 project-level routes (revisions, files, deletes). */
export function mountV2(router: Router, deps: RouteDeps): void {
  const db = deps.registry.db;
  const scope = <F extends Family>(req: Request, family: F) => recipeScope(req, 'project', 'v2', family);
  const read = async <F extends Family>(req: Request, family: F) => {
    const s = scope(req, family);
    authorizeRead(callerOf(ctx(req)), s.project);
    return { ...s, pkg: await conanFinder.package(db, s.project.id, s.ref) };
  };
  const destroy = async <F extends Family>(req: Request, family: F) => {
    const s = scope(req, family);
    authorizeDestroy(callerOf(ctx(req)), s.project);
    return { ...s, pkg: await conanFinder.package(db, s.project.id, s.ref) };
  };

  // GET R/latest — GitLab: Conan v2, "Get the latest revision"
  router.get(`${R}/latest`, async (req, res) => {
    const { pkg } = await read(req, RECIPE);
    res.json(toRevisionEntity(await conanFinder.latestRecipeRevision(db, pkg)));
  });

  // GET R/revisions — GitLab: Conan v2, "Get the list of revisions"
  router.get(`${R}/revisions`, async (req, res) => {
    const { pkg, ref } = await read(req, RECIPE);
    res.json(toRevisionsList(recipeString(ref), await recipeRevisionStore.listV2(db, pkg.id)));
  });

  // DELETE RR — GitLab: Conan v2, "Delete recipe revision"
  router.delete(RR, async (req, res) => {
    const { pkg, recipeRevision } = await destroy(req, REVISION);
    const rrev = await conanFinder.recipeRevision(db, pkg, recipeRevision);
    checkUnmodifiedSince(req, rrev.createdAt);
    await deleteRecipeRevision(deps.registry, pkg, rrev);
    res.status(200).end();
  });

  // GET RR/files — GitLab: Conan v2, "List recipe files"
  router.get(`${RR}/files`, async (req, res) => {
    const { pkg, recipeRevision } = await read(req, REVISION);
    res.json(toFilesList(await conanFinder.recipeFiles(db, pkg, recipeRevision)));
  });

  // GET RR/files/:file_name — GitLab: Conan v2, "Download recipe files"
  router.get(`${RR}/files/:file_name`, async (req, res) => {
    const { project, ref, recipeRevision, fileName } = scope(req, REVISION_FILE);
    authorizeRead(callerOf(ctx(req)), project);
    await serveFile(req, res, deps, project, ref, { protocol: 'v2', kind: 'recipe', recipeRevision }, fileName);
  });

  // PUT RR/files/:file_name — GitLab: Conan v2, "Upload recipe package files"
  router.put(`${RR}/files/:file_name`, async (req, res) => {
    const { project, ref, recipeRevision, fileName } = scope(req, REVISION_FILE);
    await receiveFile(req, res, deps, { project, ref, target: { kind: 'recipe', recipeRevision }, fileName });
  });

  // GET PR/revisions — GitLab: Conan v2, "Get the list of package revisions"
  router.get(`${PR}/revisions`, async (req, res) => {
    const { pkg, ref, recipeRevision, packageReference } = await read(req, REVISION_PACKAGE_REFERENCE);
    const revisions = await conanFinder.packageRevisions(db, pkg, recipeRevision, packageReference);
    res.json(toRevisionsList(packageRefString(ref, recipeRevision, packageReference), revisions));
  });

  // GET PR/latest — GitLab: Conan v2, "Get the latest package revision"
  router.get(`${PR}/latest`, async (req, res) => {
    const { pkg, recipeRevision, packageReference } = await read(req, REVISION_PACKAGE_REFERENCE);
    const [latest] = await conanFinder.packageRevisions(db, pkg, recipeRevision, packageReference);
    if (!latest) throw new NotFoundError('Revision');
    res.json(toRevisionEntity(latest));
  });

  // DELETE PRR — GitLab: Conan v2, "Delete package revision"
  router.delete(PRR, async (req, res) => {
    const { pkg, recipeRevision, packageReference, packageRevision } = await destroy(req, PACKAGE_REVISION);
    const slot = await conanFinder.packageSlot(db, pkg, recipeRevision, packageReference, packageRevision);
    if (!slot) throw new NotFoundError('Package Revision');
    checkUnmodifiedSince(req, slot.prev.createdAt);
    await deletePackageRevision(deps.registry, pkg, slot.pref, slot.prev);
    res.status(200).end();
  });

  // GET PRR/files — GitLab: Conan v2, "List package files"
  router.get(`${PRR}/files`, async (req, res) => {
    const { pkg, recipeRevision, packageReference, packageRevision } = await read(req, PACKAGE_REVISION);
    res.json(toFilesList(await conanFinder.packageFiles(db, pkg, recipeRevision, packageReference, packageRevision)));
  });

  // GET PRR/files/:file_name — GitLab: Conan v2, "Download package files"
  router.get(`${PRR}/files/:file_name`, async (req, res) => {
    const { project, ref, recipeRevision, packageReference, packageRevision, fileName } = scope(req, PACKAGE_REVISION_FILE);
    authorizeRead(callerOf(ctx(req)), project);
    await serveFile(req, res, deps, project, ref, { protocol: 'v2', kind: 'package', recipeRevision, packageReference, packageRevision }, fileName);
  });

  // PUT PRR/files/:file_name — GitLab: Conan v2, "Upload package files"
  router.put(`${PRR}/files/:file_name`, async (req, res) => {
    const { project, ref, recipeRevision, packageReference, packageRevision, fileName } = scope(req, PACKAGE_REVISION_FILE);
    await receiveFile(req, res, deps, { project, ref, target: { kind: 'package', recipeRevision, packageReference, packageRevision }, fileName });
  });
}
