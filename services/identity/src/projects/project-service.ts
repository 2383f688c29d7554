import type { Actor, Visibility } from '@anvil/auth';
import { ForbiddenError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { deleteProjects } from '../groups/delete-tree';
import { groupStore } from '../groups/group-store';
import { memberStore } from '../members/member-store';
import { Namespace, visibilityRank } from '../namespaces/namespace';
import { namespaceStore } from '../namespaces/namespace-store';
import { parameterize, projectNameErrors, projectPathErrors } from '../namespaces/paths';
import { Level } from '../policy';
import type { Db } from '../sql';
import { effectiveLevel, Project } from './project';
import type { ProjectSettings } from './project-settings';
import { projectStore } from './project-store';

/** Attributes of a new or changed project. */
export interface ProjectInput {
  name?: string;
  path?: string;
  description?: string | null;
  visibility?: Visibility;
  default_branch?: string;
  topics?: string[];
  settings: Partial<ProjectSettings>;
}

const CREATION_LEVEL: Record<string, number> = { noone: Infinity, administrator: Infinity, owner: Level.OWNER, maintainer: Level.MAINTAINER, developer: Level.DEVELOPER };

/** The namespace `actor` creates a project in, or 400 `{"namespace":["is not valid"]}`. */
async function targetNamespace(db: Db, actor: Actor, namespaceId: number | undefined): Promise<Namespace> {
  const ns = namespaceId === undefined ? await namespaceStore.findByOwner(db, actor.id) : await namespaceStore.findById(db, namespaceId);
  const invalid = new ValidationError({ namespace: ['is not valid'] });
  if (!ns) throw invalid;
  if (actor.admin) return ns;
  if (ns.kind === 'user') {
    if (ns.ownerId !== actor.id) throw invalid;
    return ns;
  }
  const group = await groupStore.find(db, ns.id, actor.id);
  if (!group || group.accessLevel < CREATION_LEVEL[ns.settings.project_creation_level]) throw invalid;
  return ns;
}

async function fieldErrors(db: Db, ns: Pick<Namespace, 'id' | 'kind' | 'visibility' | 'fullPath'>, input: ProjectInput, exceptId?: number): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (f: string, m: string) => (errors[f] ??= []).push(m);
  if (input.name !== undefined) for (const m of projectNameErrors(input.name)) add('name', m);
  if (input.path !== undefined) for (const m of projectPathErrors(input.path)) add('path', m);
  const taken = await projectStore.taken(db, ns.id, errors.name ? null : (input.name ?? null), errors.path ? null : (input.path ?? null), exceptId);
  if (taken.name) add('name', 'has already been taken');
  if (taken.path || (input.path && !errors.path && (await namespaceStore.fullPathTaken(db, `${ns.fullPath}/${input.path}`)))) add('path', 'has already been taken');
  if (input.visibility && ns.kind === 'group' && visibilityRank(input.visibility) > visibilityRank(ns.visibility)) {
    add('visibility_level', `${input.visibility} is not allowed in a ${ns.visibility} group.`);
  }
  return errors;
}

function duplicate(e: unknown): never {
  if (isUniqueViolation(e, 'projects_namespace_path_lower_idx')) throw new ValidationError({ path: ['has already been taken'] });
  if (isUniqueViolation(e, 'projects_namespace_name_idx')) throw new ValidationError({ name: ['has already been taken'] });
  throw e;
}

/**
 * Creates a project in `namespace_id` (default: the caller's namespace). A personal project's
 * namespace owner becomes its Owner member; a group project adds no member (group members
 * inherit). Writes `identity.project.created` (and `identity.membership.created`).
 */
export async function createProject(ctx: IdentityContext, actor: Actor, input: ProjectInput & { namespace_id?: number }): Promise<Project> {
  const ns = await targetNamespace(ctx.db, actor, input.namespace_id);
  const name = input.name ?? (input.path as string);
  const path = input.path ?? parameterize(name);
  const visibility = input.visibility ?? 'private';
  const errors = await fieldErrors(ctx.db, ns, { ...input, name, path, visibility });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  try {
    return await ctx.db.transaction(async (trx) => {
      const row = { name, path, namespace_id: ns.id, description: input.description ?? null, visibility, creator_id: actor.id, default_branch: input.default_branch ?? null, topics: input.topics ?? [], settings: input.settings };
      const id = await projectStore.insert(trx, row);
      if (ns.kind === 'user' && ns.ownerId) {
        await memberStore.insert(trx, { source_type: 'Project', source_id: id, user_id: ns.ownerId, access_level: Level.OWNER, expires_at: null, created_by_id: actor.id });
      }
      const project = (await projectStore.find(trx, id, actor.id)) as Project;
      await publish.project(trx, 'created', project, ctx.publicUrl);
      if (ns.kind === 'user' && ns.ownerId) await publish.membership(trx, 'created', { sourceType: 'Project', sourceId: id, accessLevel: Level.OWNER, expiresAt: null, user: { id: ns.ownerId } });
      return project;
    });
  } catch (e) {
    return duplicate(e);
  }
}

/**
 * Updates a project (Maintainer; renaming and changing visibility need Owner, as GitLab's
 * `rename_project` and `change_visibility_level`). Writes `identity.project.updated`.
 */
export async function updateProject(ctx: IdentityContext, actor: Actor, project: Project, input: ProjectInput): Promise<Project> {
  const level = actor.admin ? Level.OWNER : effectiveLevel(project);
  const renames = (input.name !== undefined && input.name !== project.name) || (input.path !== undefined && input.path !== project.path);
  const revisibles = input.visibility !== undefined && input.visibility !== project.visibility;
  if ((renames || revisibles) && level < Level.OWNER) throw new ForbiddenError();
  const ns = { id: project.namespace.id, kind: project.namespace.kind, visibility: project.namespace.visibility, fullPath: project.namespace.fullPath };
  const errors = await fieldErrors(ctx.db, ns, { ...input, name: input.name === project.name ? undefined : input.name, path: input.path === project.path ? undefined : input.path }, project.id);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  try {
    return await ctx.db.transaction(async (trx) => {
      await projectStore.update(trx, project.id, {
        name: input.name,
        path: input.path,
        description: input.description,
        visibility: input.visibility,
        default_branch: input.default_branch,
        topics: input.topics,
        settings: Object.keys(input.settings).length ? { ...project.settings, ...input.settings } : undefined,
      });
      const updated = (await projectStore.find(trx, project.id, actor.id)) as Project;
      await publish.project(trx, 'updated', updated, ctx.publicUrl);
      return updated;
    });
  } catch (e) {
    return duplicate(e);
  }
}

/** Deletes a project and its memberships, writing the deleted events (GitLab answers 202). */
export async function deleteProject(ctx: IdentityContext, project: Project): Promise<void> {
  await ctx.db.transaction((trx) => deleteProjects(trx, ctx.publicUrl, [project]));
}
