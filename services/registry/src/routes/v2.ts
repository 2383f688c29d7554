import type { Request, Router } from 'express';
import { ctx, NotFoundError } from '@anvil/http';
import { authorizeDestroy, authorizeRead, callerOf } from '../auth/policy';
import { packageRefString, recipeString } from '../conan/reference';
import { toFilesList } from '../entities/files';
import { toRevisionEntity, toRevisionsList } from '../entities/revision';
import { conanFinder } from '../packages/conan-finder';
import { deletePackageRevision, deleteRecipeRevision } from '../packages/delete-service';
import { recipeRevisionStore } from '../packages/revision-store';
import { type ParamSpec, conanParams, recipeProject } from './conan-params';
import { receiveFile, serveFile } from './file-transfer';
import { checkUnmodifiedSince } from './preconditions';
import { PR, PRR, R, RR, type RouteDeps } from './route-deps';

const REV: ParamSpec = { recipeRevision: true };
const PREF: ParamSpec = { recipeRevision: true, packageReference: true };
const PREV: ParamSpec = { recipeRevision: true, packageReference: true, packageRevision: true };

/** The v2 project-level routes (revisions, files, deletes). */
export function mountV2(router: Router, deps: RouteDeps): void {
  const db = deps.registry.db;
  const read = async (req: Request, spec: ParamSpec = {}) => {
    const p = conanParams(req, 'project', 'v2', spec);
    const project = recipeProject(req, 'project', p.ref);
    authorizeRead(callerOf(ctx(req)), project);
    return { ...p, project, pkg: await conanFinder.package(db, project.id, p.ref) };
  };

  // GET R/latest — GitLab: Conan v2, "Get the latest revision"
  router.get(`${R}/latest`, async (req, res) => {
    const { pkg } = await read(req);
    res.json(toRevisionEntity(await conanFinder.latestRecipeRevision(db, pkg)));
  });

  // GET R/revisions — GitLab: Conan v2, "Get the list of revisions"
  router.get(`${R}/revisions`, async (req, res) => {
    const { pkg, ref } = await read(req);
    res.json(toRevisionsList(recipeString(ref), await recipeRevisionStore.listV2(db, pkg.id)));
  });

  // DELETE RR — GitLab: Conan v2, "Delete recipe revision"
  router.delete(RR, async (req, res) => {
    const p = conanParams(req, 'project', 'v2', REV);
    const project = recipeProject(req, 'project', p.ref);
    authorizeDestroy(callerOf(ctx(req)), project);
    const pkg = await conanFinder.package(db, project.id, p.ref);
    const rrev = await conanFinder.recipeRevision(db, pkg, p.recipeRevision!);
    checkUnmodifiedSince(req, rrev.createdAt);
    await deleteRecipeRevision(deps.registry, pkg, rrev);
    res.status(200).end();
  });

  // GET RR/files — GitLab: Conan v2, "List recipe files"
  router.get(`${RR}/files`, async (req, res) => {
    const { pkg, recipeRevision } = await read(req, REV);
    res.json(toFilesList(await conanFinder.recipeFiles(db, pkg, recipeRevision!)));
  });

  // GET RR/files/:file_name — GitLab: Conan v2, "Download recipe files"
  router.get(`${RR}/files/:file_name`, async (req, res) => {
    const p = conanParams(req, 'project', 'v2', { ...REV, fileName: true });
    const project = recipeProject(req, 'project', p.ref);
    authorizeRead(callerOf(ctx(req)), project);
    await serveFile(req, res, deps, project, p.ref, { protocol: 'v2', kind: 'recipe', recipeRevision: p.recipeRevision! }, p.fileName!);
  });

  // PUT RR/files/:file_name — GitLab: Conan v2, "Upload recipe package files"
  router.put(`${RR}/files/:file_name`, async (req, res) => {
    const p = conanParams(req, 'project', 'v2', { ...REV, fileName: true });
    const project = recipeProject(req, 'project', p.ref);
    await receiveFile(req, res, deps, project, p.ref, { kind: 'recipe', recipeRevision: p.recipeRevision! }, p.fileName!);
  });

  // GET PR/revisions — GitLab: Conan v2, "Get the list of package revisions"
  router.get(`${PR}/revisions`, async (req, res) => {
    const { pkg, ref, recipeRevision, packageReference } = await read(req, PREF);
    const revisions = await conanFinder.packageRevisions(db, pkg, recipeRevision!, packageReference!);
    res.json(toRevisionsList(packageRefString(ref, recipeRevision!, packageReference!), revisions));
  });

  // GET PR/latest — GitLab: Conan v2, "Get the latest package revision"
  router.get(`${PR}/latest`, async (req, res) => {
    const { pkg, recipeRevision, packageReference } = await read(req, PREF);
    const [latest] = await conanFinder.packageRevisions(db, pkg, recipeRevision!, packageReference!);
    if (!latest) throw new NotFoundError('Revision');
    res.json(toRevisionEntity(latest));
  });

  // DELETE PRR — GitLab: Conan v2, "Delete package revision"
  router.delete(PRR, async (req, res) => {
    const p = conanParams(req, 'project', 'v2', PREV);
    const project = recipeProject(req, 'project', p.ref);
    authorizeDestroy(callerOf(ctx(req)), project);
    const pkg = await conanFinder.package(db, project.id, p.ref);
    const slot = await conanFinder.packageSlot(db, pkg, p.recipeRevision!, p.packageReference!, p.packageRevision!);
    if (!slot) throw new NotFoundError('Package Revision');
    checkUnmodifiedSince(req, slot.prev.createdAt);
    await deletePackageRevision(deps.registry, pkg, slot.pref, slot.prev);
    res.status(200).end();
  });

  // GET PRR/files — GitLab: Conan v2, "List package files"
  router.get(`${PRR}/files`, async (req, res) => {
    const { pkg, recipeRevision, packageReference, packageRevision } = await read(req, PREV);
    res.json(toFilesList(await conanFinder.packageFiles(db, pkg, recipeRevision!, packageReference!, packageRevision!)));
  });

  // GET PRR/files/:file_name — GitLab: Conan v2, "Download package files"
  router.get(`${PRR}/files/:file_name`, async (req, res) => {
    const p = conanParams(req, 'project', 'v2', { ...PREV, fileName: true });
    const project = recipeProject(req, 'project', p.ref);
    authorizeRead(callerOf(ctx(req)), project);
    const address = { protocol: 'v2' as const, kind: 'package' as const, recipeRevision: p.recipeRevision!, packageReference: p.packageReference!, packageRevision: p.packageRevision! };
    await serveFile(req, res, deps, project, p.ref, address, p.fileName!);
  });

  // PUT PRR/files/:file_name — GitLab: Conan v2, "Upload package files"
  router.put(`${PRR}/files/:file_name`, async (req, res) => {
    const p = conanParams(req, 'project', 'v2', { ...PREV, fileName: true });
    const project = recipeProject(req, 'project', p.ref);
    const target = { kind: 'package' as const, recipeRevision: p.recipeRevision!, packageReference: p.packageReference!, packageRevision: p.packageRevision! };
    await receiveFile(req, res, deps, project, p.ref, target, p.fileName!);
  });
}
