import { randomUUID } from 'node:crypto';
import { AccessLevel, Actor, GroupScope, ProjectScope, Visibility } from '@anvil/auth';
import { EventEnvelope, GroupEventV1, IdentityEvents, MembershipEventV1, ProjectEventV1, UserEventV1 } from '@anvil/events';
import { As, startService, TEST_BASE_URL, TestService } from '@anvil/testing';
import { workItemsService } from '../../src';

export { AccessLevel };

/** Starts work-items on a fresh schema (in-process bus). */
export function startWorkItems(): Promise<TestService> {
  return startService(workItemsService);
}

interface GroupInfo { id: number; full_path: string; parent_id: number | null; visibility: Visibility; traversal: number[] }
interface ProjectInfo { id: number; path_with_namespace: string; namespace_id: number; group_id: number | null; visibility: Visibility; traversal: number[] }

let nextId = 50_000 + Math.floor(Math.random() * 1000) * 100;

/**
 * Identity as the service sees it: publishes `identity.*` events on the service's bus (waiting
 * until the consumer applied them) and signs contexts the way the gateway would resolve them,
 * with the caller's effective access level computed from the memberships it published.
 */
export class World {
  private readonly groups = new Map<number, GroupInfo>();
  private readonly projects = new Map<number, ProjectInfo>();
  private readonly members = new Map<string, number>();

  constructor(readonly svc: TestService) {}

  /** Publishes one identity event and waits until the read-model consumer applied it. */
  async publish(type: string, data: unknown): Promise<void> {
    const event: EventEnvelope = { id: randomUUID(), type, occurred_at: new Date().toISOString(), producer: 'identity', version: 1, data };
    await this.svc.deps.bus.publish(event);
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const row = await this.svc.deps.db('inbox').where({ event_id: event.id }).first();
      if (row) return;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`event ${type} was not consumed`);
  }

  /** Creates a user; `admin` makes an administrator. */
  async user(username: string, opts: { admin?: boolean; name?: string } = {}): Promise<Actor> {
    const id = nextId++;
    const data: UserEventV1 = { id, username, name: opts.name ?? username, state: 'active', avatar_url: null, web_url: `${TEST_BASE_URL}/${username}`, admin: !!opts.admin };
    await this.publish(IdentityEvents.userCreated, data);
    return { id, username, name: data.name, admin: !!opts.admin, state: 'active' };
  }

  /** Renames a user (an `identity.user.updated` event). */
  async renameUser(user: Actor, username: string, name: string): Promise<void> {
    const data: UserEventV1 = { id: user.id, username, name, state: 'active', avatar_url: null, web_url: `${TEST_BASE_URL}/${username}`, admin: user.admin };
    await this.publish(IdentityEvents.userUpdated, data);
  }

  /** Creates a group (under `parent` when given). */
  async group(path: string, opts: { parent?: GroupInfo; visibility?: Visibility } = {}): Promise<GroupInfo> {
    const id = nextId++;
    const full_path = opts.parent ? `${opts.parent.full_path}/${path}` : path;
    const traversal = [...(opts.parent?.traversal ?? []), id];
    const g: GroupInfo = { id, full_path, parent_id: opts.parent?.id ?? null, visibility: opts.visibility ?? 'private', traversal };
    const data: GroupEventV1 = { id, name: path, path, full_path, parent_id: g.parent_id, visibility: g.visibility, traversal_ids: traversal };
    await this.publish(IdentityEvents.groupCreated, data);
    this.groups.set(id, g);
    return g;
  }

  /** Creates a project in a group (or a personal namespace when `group` is omitted). */
  async project(path: string, opts: { group?: GroupInfo; visibility?: Visibility; archived?: boolean } = {}): Promise<ProjectInfo> {
    const id = nextId++;
    const ns = opts.group?.full_path ?? `user-ns-${id}`;
    const info: ProjectInfo = { id, path_with_namespace: `${ns}/${path}`, namespace_id: opts.group?.id ?? id + 1_000_000, group_id: opts.group?.id ?? null, visibility: opts.visibility ?? 'private', traversal: opts.group?.traversal ?? [] };
    const data: ProjectEventV1 = {
      id, name: path, path, path_with_namespace: info.path_with_namespace, namespace_id: info.namespace_id, namespace_kind: opts.group ? 'group' : 'user',
      group_id: info.group_id, group_traversal_ids: info.traversal, visibility: info.visibility, archived: !!opts.archived, creator_id: null,
      web_url: `${TEST_BASE_URL}/${info.path_with_namespace}`,
    };
    await this.publish(IdentityEvents.projectCreated, data);
    this.projects.set(id, info);
    return info;
  }

  /** Archives (or unarchives) a project: an `identity.project.updated` event. */
  async archive(project: ProjectInfo, archived = true): Promise<void> {
    const path = project.path_with_namespace.split('/').pop() as string;
    const data: ProjectEventV1 = {
      id: project.id, name: path, path, path_with_namespace: project.path_with_namespace, namespace_id: project.namespace_id,
      namespace_kind: project.group_id ? 'group' : 'user', group_id: project.group_id, group_traversal_ids: project.traversal,
      visibility: project.visibility, archived, creator_id: null, web_url: `${TEST_BASE_URL}/${project.path_with_namespace}`,
    };
    await this.publish(IdentityEvents.projectUpdated, data);
  }

  /** Adds `user` to a project or group at `level`. */
  async member(source: ProjectInfo | GroupInfo, user: Actor, level: number): Promise<void> {
    const isProject = this.projects.has(source.id);
    const data: MembershipEventV1 = { source_type: isProject ? 'Project' : 'Namespace', source_id: source.id, user_id: user.id, access_level: level, expires_at: null };
    await this.publish(IdentityEvents.membershipCreated, data);
    this.members.set(`${data.source_type}:${source.id}:${user.id}`, level);
  }

  private groupLevel(traversal: number[], user: Actor | null): number {
    if (!user) return 0;
    return Math.max(0, ...traversal.map((g) => this.members.get(`Namespace:${g}:${user.id}`) ?? 0));
  }

  /** The project scope the gateway would sign for `user`. */
  projectScope(project: ProjectInfo, user: Actor | null): ProjectScope {
    const direct = user ? this.members.get(`Project:${project.id}:${user.id}`) ?? 0 : 0;
    const level = Math.max(direct, this.groupLevel(project.traversal, user));
    return { id: project.id, path_with_namespace: project.path_with_namespace, namespace_id: project.namespace_id, group_id: project.group_id, visibility: project.visibility, access_level: level };
  }

  /** The group scope the gateway would sign for `user`. */
  groupScope(group: GroupInfo, user: Actor | null): GroupScope {
    return { id: group.id, full_path: group.full_path, parent_id: group.parent_id, visibility: group.visibility, access_level: this.groupLevel(group.traversal, user) };
  }

  /** A client signed for `user` on a project route. */
  onProject(project: ProjectInfo, user: Actor | null): ReturnType<TestService['as']> {
    return this.svc.as({ user, project: this.projectScope(project, user) } as As);
  }

  /** A client signed for `user` on a group route. */
  onGroup(group: GroupInfo, user: Actor | null): ReturnType<TestService['as']> {
    return this.svc.as({ user, group: this.groupScope(group, user) } as As);
  }

  /** A client signed for `user` on an unscoped route (`/issues`, `/todos`). */
  as(user: Actor | null): ReturnType<TestService['as']> {
    return this.svc.as({ user } as As);
  }
}

export type { GroupInfo, ProjectInfo };
