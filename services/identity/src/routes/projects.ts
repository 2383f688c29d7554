import type { Router } from 'express';
import { ctx, keysetPaginate, MethodNotAllowedError, p, Page, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toBasicProjectDetails, toProjectEntity, toProjectWithAccess } from '../entities/project';
import { Level, requireLevel, requireUser } from '../policy';
import { effectiveLevel, Project, ProjectRow, toProject } from '../projects/project';
import { projectSettingParams, settingsFromParams } from '../projects/project-settings';
import { createProject, deleteProject, ProjectInput, updateProject } from '../projects/project-service';
import { ProjectsFinder } from '../projects/projects-finder';
import { defined } from './helpers';
import { loadProject } from './loaders';

const VISIBILITY = ['private', 'internal', 'public'] as const;
const attributes = {
  name: p.string(),
  path: p.string(),
  description: p.string(),
  visibility: p.enum(VISIBILITY),
  default_branch: p.string(),
  topics: p.list(),
  tag_list: p.list(),
  ...projectSettingParams,
};
const createParams = params({ ...attributes, namespace_id: p.integer(), initialize_with_readme: p.boolean() }, { atLeastOneOf: [['name', 'path']] });
const updateParams = params(attributes, { atLeastOneOf: [Object.keys(attributes)] });

/** Project list filters, shared with `GET /groups/:id/projects`. */
export const projectListParams = {
  archived: p.boolean(),
  visibility: p.enum(VISIBILITY),
  search: p.string(),
  search_namespaces: p.boolean(),
  owned: p.boolean(),
  membership: p.boolean(),
  min_access_level: p.integer().where((n) => [5, 10, 15, 20, 30, 40, 50].includes(n)),
  id_after: p.integer(),
  id_before: p.integer(),
  last_activity_after: p.datetime(),
  last_activity_before: p.datetime(),
  topic: p.list(),
  starred: p.boolean(),
  with_issues_enabled: p.boolean(),
  with_merge_requests_enabled: p.boolean(),
  order_by: p.enum(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count'] as const),
  sort: p.enum(['asc', 'desc'] as const),
  simple: p.boolean(),
  statistics: p.boolean(),
  with_custom_attributes: p.boolean(),
  pagination: p.enum(['offset', 'keyset'] as const),
};
const listParams = params(projectListParams);

/** The attributes of a create or update, with the settings gathered and `tag_list` as `topics`. */
export function projectInput(input: Record<string, unknown>): ProjectInput {
  const { name, path, description, visibility, default_branch, topics, tag_list } = input as unknown as ProjectInput & { tag_list?: string[] };
  return { ...defined({ name, path, description, visibility, default_branch }), topics: topics ?? tag_list, settings: settingsFromParams(input) };
}

/** Serialises a project list: BasicProjectDetails for `simple` or anonymous callers, else ProjectWithAccess. */
export function presentProjects(projects: Project[], base: string, simple: boolean, admin: boolean) {
  return projects.map((p) => (simple ? toBasicProjectDetails(p, base) : toProjectWithAccess(p, base, admin || effectiveLevel(p) >= Level.MAINTAINER)));
}

/** Projects routes: create, list, read, update, delete. */
export function projectsRoutes(router: Router, ictx: IdentityContext): void {
  // POST /projects
  router.post('/projects', async (req, res) => {
    const c = ctx(req);
    const actor = requireUser(c.user);
    const input = createParams.parse(req);
    const project = await createProject(ictx, actor, { ...projectInput(input), namespace_id: input.namespace_id });
    res.status(201).json(toProjectEntity(project, c.base, true));
  });

  // GET /projects
  router.get('/projects', async (req, res) => {
    const c = ctx(req);
    const input = listParams.parse(req);
    const finder = new ProjectsFinder(ictx.db, c.user, input);
    let page: Page<ProjectRow>;
    if (input.pagination === 'keyset') {
      if (input.order_by && input.order_by !== 'id') throw new MethodNotAllowedError('Keyset pagination is not yet available for this type of request');
      page = await keysetPaginate<ProjectRow & Record<string, unknown>>(req, finder.execute().clearOrder(), [{ column: 'p.id', key: 'id' }], input.sort ?? 'desc');
    } else {
      page = await paginate<ProjectRow>(req, finder.execute());
    }
    res.set(page.headers);
    res.json(presentProjects(page.items.map(toProject), c.base, !!input.simple || !c.user, !!c.user?.admin));
  });

  // GET /projects/:id
  router.get('/projects/:id', async (req, res) => {
    const c = ctx(req);
    const project = await loadProject(ictx, req);
    if (!c.user) return void res.json(toBasicProjectDetails(project, c.base));
    res.json(toProjectWithAccess(project, c.base, c.user.admin || effectiveLevel(project) >= Level.MAINTAINER));
  });

  // PUT /projects/:id
  router.put('/projects/:id', async (req, res) => {
    const c = ctx(req);
    const project = await loadProject(ictx, req);
    requireLevel(c.user, effectiveLevel(project), Level.MAINTAINER);
    const input = updateParams.parse(req);
    const updated = await updateProject(ictx, requireUser(c.user), project, projectInput(input));
    res.json(toProjectEntity(updated, c.base, true));
  });

  // DELETE /projects/:id
  router.delete('/projects/:id', async (req, res) => {
    const c = ctx(req);
    const project = await loadProject(ictx, req);
    requireLevel(c.user, effectiveLevel(project), Level.OWNER);
    await deleteProject(ictx, project);
    res.status(202).json({ message: '202 Accepted' });
  });
}
