import type { Knex } from 'knex';
import {
  EventEnvelope, GroupEventV1, GroupLinkEvents, GroupLinkEventV1, IdentityEvents, MembershipEventV1, ProjectEventV1, ProjectGroupLinkEvents,
  ProjectGroupLinkEventV1, UserEventV1,
} from '@anvil/events';
import { deleteProjectSnippets } from '../snippets/snippet-store';

type Db = Knex | Knex.Transaction;

/**
 * Applies one `identity.*` event to this service's read models. Idempotent and order-tolerant:
 * a row is only overwritten by an event that occurred later than the one it holds, and a
 * deletion leaves a tombstone. Unknown event types are ignored.
 */
export async function applyIdentityEvent(db: Db, event: EventEnvelope): Promise<void> {
  const at = event.occurred_at;
  switch (event.type) {
    case IdentityEvents.userCreated:
    case IdentityEvents.userUpdated:
      return upsertUser(db, event.data as UserEventV1, at, false);
    case IdentityEvents.userDeleted:
      return upsertUser(db, event.data as UserEventV1, at, true);
    case IdentityEvents.groupCreated:
    case IdentityEvents.groupUpdated:
      return upsertGroup(db, event.data as GroupEventV1, at, false);
    case IdentityEvents.groupDeleted:
      return upsertGroup(db, event.data as GroupEventV1, at, true);
    case IdentityEvents.projectCreated:
    case IdentityEvents.projectUpdated:
      return upsertProject(db, event.data as ProjectEventV1, at, false);
    case IdentityEvents.projectDeleted:
      await upsertProject(db, event.data as ProjectEventV1, at, true);
      return removeProjectData(db, (event.data as ProjectEventV1).id);
    case IdentityEvents.membershipCreated:
    case IdentityEvents.membershipUpdated:
      return upsertMembership(db, event.data as MembershipEventV1, at, false);
    case IdentityEvents.membershipDeleted:
      return upsertMembership(db, event.data as MembershipEventV1, at, true);
    case GroupLinkEvents.created:
      return upsertGroupLink(db, event.data as GroupLinkEventV1, at, false);
    case GroupLinkEvents.deleted:
      return upsertGroupLink(db, event.data as GroupLinkEventV1, at, true);
    case ProjectGroupLinkEvents.created:
      return upsertProjectGroupLink(db, event.data as ProjectGroupLinkEventV1, at, false);
    case ProjectGroupLinkEvents.deleted:
      return upsertProjectGroupLink(db, event.data as ProjectGroupLinkEventV1, at, true);
    default:
      return;
  }
}

async function upsert(db: Db, table: string, row: Record<string, unknown>, key: string[]): Promise<void> {
  const cols = Object.keys(row);
  const updates = cols.filter((c) => !key.includes(c)).map((c) => `${c} = EXCLUDED.${c}`).join(', ');
  await db.raw(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
     ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${updates} WHERE ${table}.synced_at <= EXCLUDED.synced_at`,
    cols.map((c) => row[c] as Knex.Value),
  );
}

async function upsertUser(db: Db, u: UserEventV1, at: string, deleted: boolean): Promise<void> {
  await upsert(db, 'users', {
    id: u.id, username: u.username, name: u.name, state: deleted ? 'deleted' : u.state, avatar_url: u.avatar_url,
    web_url: u.web_url, admin: u.admin, deleted, synced_at: at,
  }, ['id']);
}

async function upsertGroup(db: Db, g: GroupEventV1, at: string, deleted: boolean): Promise<void> {
  await upsert(db, 'groups', {
    id: g.id, name: g.name, path: g.path, full_path: g.full_path, parent_id: g.parent_id, visibility: g.visibility,
    traversal_ids: g.traversal_ids ?? [], deleted, synced_at: at,
  }, ['id']);
}

async function upsertProject(db: Db, p: ProjectEventV1, at: string, deleted: boolean): Promise<void> {
  await upsert(db, 'projects', {
    id: p.id, name: p.name, path: p.path, path_with_namespace: p.path_with_namespace, namespace_id: p.namespace_id,
    namespace_kind: p.namespace_kind, group_id: p.group_id, group_traversal_ids: p.group_traversal_ids ?? [],
    visibility: p.visibility, archived: p.archived, creator_id: p.creator_id, web_url: p.web_url, deleted, synced_at: at,
  }, ['id']);
}

async function upsertMembership(db: Db, m: MembershipEventV1, at: string, deleted: boolean): Promise<void> {
  await upsert(db, 'memberships', {
    user_id: m.user_id, source_type: m.source_type, source_id: m.source_id,
    access_level: deleted ? 0 : m.access_level, expires_at: m.expires_at, synced_at: at,
  }, ['user_id', 'source_type', 'source_id']);
}

/** A deleted project takes its issues, merge requests, snippets, labels and milestones with it. */
async function removeProjectData(db: Db, projectId: number): Promise<void> {
  await db('todos').where({ project_id: projectId }).delete();
  await db('notes').where({ project_id: projectId }).delete();
  await db('merge_requests').where({ project_id: projectId }).delete();
  await deleteProjectSnippets(db, projectId);
  await db('issues').where({ project_id: projectId }).delete();
  await db('labels').where({ project_id: projectId }).delete();
  await db('milestones').where({ project_id: projectId }).delete();
}

async function upsertGroupLink(db: Db, l: GroupLinkEventV1, at: string, deleted: boolean): Promise<void> {
  await upsert(db, 'group_links', {
    shared_group_id: l.shared_group_id, shared_with_group_id: l.shared_with_group_id, group_access: l.group_access,
    expires_at: l.expires_at, deleted, synced_at: at,
  }, ['shared_group_id', 'shared_with_group_id']);
}

async function upsertProjectGroupLink(db: Db, l: ProjectGroupLinkEventV1, at: string, deleted: boolean): Promise<void> {
  await upsert(db, 'project_group_links', {
    project_id: l.project_id, group_id: l.group_id, group_access: l.group_access, expires_at: l.expires_at, deleted, synced_at: at,
  }, ['project_id', 'group_id']);
}
