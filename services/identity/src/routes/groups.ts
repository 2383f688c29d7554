import type { Router } from 'express';
import type { Actor } from '@anvil/auth';
import { ctx, ForbiddenError, p, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toGroupDetail } from '../entities/group';
import { toBasicProjectDetails, toProjectEntity } from '../entities/project';
import { createGroup, deleteGroup, GroupInput, subgroupCreationLevel, updateGroup } from '../groups/group-service';
import { visibleInvitedGroups } from '../groups/group-share-service';
import { Group, groupStore } from '../groups/group-store';
import type { GroupSettings } from '../namespaces/namespace';
import { Level, requireLevel, requireUser, visibleOr404 } from '../policy';
import { Project, ProjectRow, toProject } from '../projects/project';
import { GroupScopeFilter, ProjectsFinder } from '../projects/projects-finder';
import { userStore } from '../users/user-store';
import { defined } from './helpers';
import { listGroups } from './group-list';
import { loadGroup } from './loaders';
import { projectListParams } from './projects';

const VISIBILITY = ['private', 'internal', 'public'] as const;
const settingParams = {
  project_creation_level: p.enum(['noone', 'owner', 'maintainer', 'developer', 'administrator'] as const),
  subgroup_creation_level: p.enum(['owner', 'maintainer'] as const),
  request_access_enabled: p.boolean(),
  lfs_enabled: p.boolean(),
  share_with_group_lock: p.boolean(),
  require_two_factor_authentication: p.boolean(),
  two_factor_grace_period: p.integer(),
  auto_devops_enabled: p.boolean(),
  emails_enabled: p.boolean(),
  emails_disabled: p.boolean(),
  mentions_disabled: p.boolean(),
  default_branch: p.string(),
  default_branch_protection: p.integer().where((n) => n >= 0 && n <= 4),
};
const attributes = { name: p.string(), path: p.string(), description: p.string(), visibility: p.enum(VISIBILITY), ...settingParams };
const createParams = params({ ...attributes, name: p.string().required(), path: p.string().required(), parent_id: p.integer() });
const updateParams = params(attributes);
const showParams = params({ with_projects: p.boolean().default(true), with_custom_attributes: p.boolean() });
const projectsParams = params({ ...projectListParams, include_subgroups: p.boolean(), with_shared: p.boolean(), include_ancestor_groups: p.boolean() });

function groupInput(input: Record<string, unknown>): GroupInput {
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(settingParams)) if (input[key] !== undefined && key !== 'emails_disabled') settings[key] = input[key];
  if (typeof input.emails_disabled === 'boolean' && input.emails_enabled === undefined) settings.emails_enabled = !input.emails_disabled;
  const { name, path, description, visibility } = input as unknown as GroupInput;
  return { ...defined({ name, path, description, visibility }), settings: settings as Partial<GroupSettings> };
}

async function authorizeCreate(ictx: IdentityContext, actor: Actor, parentId: number | undefined): Promise<Group | null> {
  if (parentId === undefined) {
    const user = await userStore.findById(ictx.db, actor.id);
    if (!actor.admin && !user?.canCreateGroup) throw new ForbiddenError();
    return null;
  }
  const parent = visibleOr404(await groupStore.find(ictx.db, parentId, actor.id), (g) => g.accessLevel, actor, 'Group');
  requireLevel(actor, parent.accessLevel, subgroupCreationLevel(parent));
  return parent;
}

/** The first 100 projects of the group and the first 100 shared with it (what `GET /groups/:id` embeds; no query for the latter when none is). */
async function groupProjects(ictx: IdentityContext, actor: Actor | null, group: Group): Promise<{ own: Project[]; shared: Project[] }> {
  const list = async (scope: GroupScopeFilter) => (await new ProjectsFinder(ictx.db, actor, {}, scope).first(100)).map(toProject);
  const own = await list({ groupId: group.id, includeSubgroups: false });
  return { own, shared: group.hasSharedProjects ? await list({ groupId: group.id, includeSubgroups: false, onlyShared: true }) : [] };
}

/** Groups routes: create, list, read, update, delete, subgroups, descendant groups, projects. */
export function groupsRoutes(router: Router, ictx: IdentityContext): void {
  // POST /groups
  router.post('/groups', async (req, res) => {
    const c = ctx(req);
    const actor = requireUser(c.user);
    const input = createParams.parse(req);
    const parent = await authorizeCreate(ictx, actor, input.parent_id);
    const group = await createGroup(ictx, actor, { ...groupInput(input), name: input.name, path: input.path }, parent);
    res.status(201).json(toGroupDetail(group, c.base, null));
  });

  // GET /groups
  router.get('/groups', (req, res) => listGroups(ictx, req, res));

  // GET /groups/:id
  router.get('/groups/:id', async (req, res) => {
    const c = ctx(req);
    const group = await loadGroup(ictx, req);
    const { with_projects } = showParams.parse(req);
    const projects = with_projects ? await groupProjects(ictx, c.user, group) : null;
    const entities = (list: Project[]) => list.map((p) => toProjectEntity(p, c.base));
    res.json(toGroupDetail(group, c.base, projects && entities(projects.own), await visibleInvitedGroups(ictx, c.user, group), projects ? entities(projects.shared) : []));
  });

  // PUT /groups/:id
  router.put('/groups/:id', async (req, res) => {
    const c = ctx(req);
    const group = await loadGroup(ictx, req);
    requireLevel(c.user, group.accessLevel, Level.OWNER);
    const updated = await updateGroup(ictx, requireUser(c.user), group, groupInput(updateParams.parse(req)));
    res.json(toGroupDetail(updated, c.base, null, await visibleInvitedGroups(ictx, c.user, updated)));
  });

  // DELETE /groups/:id
  router.delete('/groups/:id', async (req, res) => {
    const c = ctx(req);
    const group = await loadGroup(ictx, req);
    requireLevel(c.user, group.accessLevel, Level.OWNER);
    await deleteGroup(ictx, group);
    res.status(202).json({ message: '202 Accepted' });
  });

  // GET /groups/:id/subgroups
  router.get('/groups/:id/subgroups', async (req, res) => listGroups(ictx, req, res, { id: (await loadGroup(ictx, req)).id }));

  // GET /groups/:id/descendant_groups
  router.get('/groups/:id/descendant_groups', async (req, res) => listGroups(ictx, req, res, { id: (await loadGroup(ictx, req)).id, descendants: true }));

  // GET /groups/:id/projects
  router.get('/groups/:id/projects', async (req, res) => {
    const c = ctx(req);
    const group = await loadGroup(ictx, req);
    const input = projectsParams.parse(req);
    const finder = new ProjectsFinder(ictx.db, c.user, input, { groupId: group.id, includeSubgroups: !!input.include_subgroups, withShared: input.with_shared ?? true });
    const { items, headers } = await paginate<ProjectRow>(req, finder.execute());
    res.set(headers);
    const projects = items.map(toProject);
    res.json(projects.map((p) => (input.simple ? toBasicProjectDetails(p, c.base) : toProjectEntity(p, c.base))));
  });
}
