import { AccessLevel, Actor, Visibility } from '@anvil/auth';
import { HttpError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { memberStore } from '../members/member-store';
import { GroupSettings, Namespace, visibilityRank } from '../namespaces/namespace';
import { namespaceStore } from '../namespaces/namespace-store';
import { namespacePathErrors } from '../namespaces/paths';
import { projectStore } from '../projects/project-store';
import type { Db } from '../sql';
import { deleteNamespaceTree } from './delete-tree';
import { Group, groupStore } from './group-store';

/** Attributes of a new or changed group. */
export interface GroupInput {
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
  settings: Partial<GroupSettings>;
}

const GROUP_NAME = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Extended_Pictographic}_.\-() ]*$/u;
const GROUP_NAME_MESSAGE = "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

/** Renders field errors as Ruby's `Hash#inspect` does (GitLab puts it in "Failed to save group …"). */
export function rubyInspect(errors: Record<string, string[]>): string {
  return `{${Object.entries(errors)
    .map(([k, v]) => `:${k}=>[${v.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ')}}`;
}

/** The level `subgroup_creation_level` asks of a parent group's member. */
export function subgroupCreationLevel(parent: Namespace): number {
  return parent.settings.subgroup_creation_level === 'owner' ? AccessLevel.OWNER : AccessLevel.MAINTAINER;
}

async function fieldErrors(db: Db, input: GroupInput, parent: Namespace | null, self?: Group): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (f: string, m: string) => (errors[f] ??= []).push(m);
  if (input.name !== undefined) {
    if (!input.name.trim()) add('name', "can't be blank");
    else if (!GROUP_NAME.test(input.name)) add('name', GROUP_NAME_MESSAGE);
  }
  if (input.path !== undefined) {
    for (const m of namespacePathErrors(input.path, !parent)) add('path', m);
    const full = parent ? `${parent.fullPath}/${input.path}` : input.path;
    if (!errors.path && ((await namespaceStore.fullPathTaken(db, full, self?.id)) || (await projectStore.fullPathTaken(db, full)))) add('path', 'has already been taken');
  }
  if (input.visibility && parent && visibilityRank(input.visibility) > visibilityRank(parent.visibility)) {
    add('visibility_level', `${input.visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`);
  }
  if (input.visibility && self) await addChildVisibilityErrors(db, self, input.visibility, add);
  return errors;
}

async function addChildVisibilityErrors(db: Db, g: Group, v: Visibility, add: (f: string, m: string) => void) {
  const higher = (['internal', 'public'] as Visibility[]).filter((x) => visibilityRank(x) > visibilityRank(v));
  if (!higher.length) return;
  if (await db('projects').where('namespace_id', g.id).whereIn('visibility', higher).first('id')) add('visibility_level', `${v} is not allowed since this group contains projects with higher visibility.`);
  if (await db('namespaces').where('parent_id', g.id).whereIn('visibility', higher).first('id')) add('visibility_level', `${v} is not allowed since there are sub-groups with higher visibility.`);
}

/**
 * Creates a group (a subgroup when `parent` is given) with the creator as Owner, and writes
 * `identity.group.created` and `identity.membership.created`. Invalid attributes answer as
 * GitLab's create does: 400 `Failed to save group {:path=>["has already been taken"]}`.
 */
export async function createGroup(ctx: IdentityContext, actor: Actor, input: GroupInput & { name: string; path: string }, parent: Group | null): Promise<Group> {
  const visibility = input.visibility ?? 'private';
  const errors = await fieldErrors(ctx.db, { ...input, visibility }, parent);
  if (Object.keys(errors).length) throw new HttpError(400, { message: `Failed to save group ${rubyInspect(errors)}` });
  try {
    return await ctx.db.transaction(async (trx) => {
      const id = await namespaceStore.insert(trx, { kind: 'group', name: input.name, path: input.path, visibility, description: input.description ?? '', settings: input.settings }, parent);
      await memberStore.insert(trx, { source_type: 'Namespace', source_id: id, user_id: actor.id, access_level: AccessLevel.OWNER, expires_at: null, created_by_id: actor.id });
      const group = (await groupStore.find(trx, id, actor.id)) as Group;
      await publish.group(trx, 'created', group);
      await publish.membership(trx, 'created', { sourceType: 'Namespace', sourceId: id, accessLevel: AccessLevel.OWNER, expiresAt: null, user: { id: actor.id } });
      return group;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'namespaces_full_path_lower_idx')) throw new HttpError(400, { message: `Failed to save group ${rubyInspect({ path: ['has already been taken'] })}` });
    throw e;
  }
}

/**
 * Updates a group (Owner). A path change rewrites the full paths below it. Writes
 * `identity.group.updated`; invalid attributes are 400 `{"message":{"field":[...]}}`.
 */
export async function updateGroup(ctx: IdentityContext, actor: Actor, group: Group, input: GroupInput): Promise<Group> {
  const parent = group.parentId ? await namespaceStore.findById(ctx.db, group.parentId) : null;
  const changes: GroupInput = { ...input, path: input.path !== undefined && input.path !== group.path ? input.path : undefined };
  const errors = await fieldErrors(ctx.db, changes, parent, group);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return ctx.db.transaction(async (trx) => {
    await namespaceStore.update(trx, group.id, {
      name: input.name,
      description: input.description,
      visibility: input.visibility,
      settings: Object.keys(input.settings).length ? { ...group.settings, ...input.settings } : undefined,
    });
    if (changes.path) await namespaceStore.renamePath(trx, group, changes.path);
    const updated = (await groupStore.find(trx, group.id, actor.id)) as Group;
    await publish.group(trx, 'updated', updated);
    return updated;
  });
}

/**
 * Deletes a group with its subgroups, their projects and memberships, in one transaction,
 * writing a deleted event for each project, membership and group (deepest groups first).
 */
export async function deleteGroup(ctx: IdentityContext, group: Group): Promise<void> {
  await ctx.db.transaction(async (trx) => deleteNamespaceTree(trx, ctx.publicUrl, group.id));
}
