import type { EventEnvelope, GroupEventV1, IssueEventV1, MembershipEventV1, NoteEventV1, ProjectEventV1 } from '@anvil/events';
import { namespaceStore } from '../namespaces/namespace-store';
import { projectStore } from '../projects/project-store';
import type { Db } from '../sql';
import { userStore } from '../users/user-store';
import type { EventFlag } from './hook';
import { hookTime, issuePayload, memberPayload, notePayload, projectPayload, subgroupPayload } from './payloads';

/** GitLab's hook scopes this fleet delivers, with the switch each needs. */
export const TRIGGERS = {
  issue_hooks: 'issues_events',
  confidential_issue_hooks: 'confidential_issues_events',
  note_hooks: 'note_events',
  confidential_note_hooks: 'confidential_note_events',
  member_hooks: 'member_events',
  subgroup_hooks: 'subgroup_events',
  project_hooks: 'project_events',
} as const satisfies Record<string, EventFlag>;

/** A hook scope this fleet delivers (`issue_hooks`, …). */
export type Trigger = keyof typeof TRIGGERS;

/**
 * What one event asks of group hooks: the scope, the groups whose hooks fire, and the payload,
 * built (with its user and project reads) only once some hook is known to fire.
 */
export interface HookEvent {
  trigger: Trigger;
  groupIds: number[];
  payload: () => Promise<Record<string, unknown>>;
}

/** The patterns of the events that become hook deliveries. */
export const HOOK_EVENT_PATTERNS = ['work-items.issue.*', 'work-items.note.*', 'identity.membership.*', 'identity.group.*', 'identity.project.*'];

const verbOf = (type: string) => type.split('.').pop() as string;

async function projectGroups(db: Db, projectId: number) {
  const project = await projectStore.find(db, projectId, null);
  if (!project || project.namespace.kind !== 'group') return null;
  return { project, groupIds: project.namespace.traversalIds };
}

async function fromIssue(db: Db, e: IssueEventV1, verb: string, publicUrl: string): Promise<HookEvent | null> {
  if (verb === 'deleted') return null;
  const found = await projectGroups(db, e.project_id);
  if (!found) return null;
  const trigger = e.confidential ? 'confidential_issue_hooks' : 'issue_hooks';
  const payload = async () => {
    const actor = e.actor_id ? await userStore.findById(db, e.actor_id) : null;
    return issuePayload(verb, e, actor, found.project, await userStore.findByIds(db, e.assignee_ids), publicUrl);
  };
  return { trigger, groupIds: found.groupIds, payload };
}

async function fromNote(db: Db, e: NoteEventV1, verb: string, publicUrl: string): Promise<HookEvent | null> {
  if (verb === 'deleted' || e.system || e.project_id === null) return null;
  const found = await projectGroups(db, e.project_id);
  if (!found) return null;
  const trigger = e.internal ? 'confidential_note_hooks' : 'note_hooks';
  const payload = async () => notePayload(verb, e, await userStore.findById(db, e.actor_id), found.project, publicUrl);
  return { trigger, groupIds: found.groupIds, payload };
}

async function fromMembership(db: Db, e: MembershipEventV1, verb: string, occurredAt: string): Promise<HookEvent | null> {
  if (e.source_type !== 'Namespace') return null;
  const group = await namespaceStore.findById(db, e.source_id);
  if (!group) return null;
  const payload = async () => memberPayload(verb, e, group, await userStore.findById(db, e.user_id), occurredAt);
  return { trigger: 'member_hooks', groupIds: group.traversalIds, payload };
}

async function fromGroup(db: Db, e: GroupEventV1, verb: string, occurredAt: string): Promise<HookEvent | null> {
  if ((verb !== 'created' && verb !== 'deleted') || e.parent_id === null) return null;
  const parent = await namespaceStore.findById(db, e.parent_id);
  if (!parent) return null;
  const payload = async () => {
    const self = await namespaceStore.findById(db, e.id);
    const times = { created: hookTime(self?.createdAt ?? occurredAt), updated: hookTime(self?.updatedAt ?? occurredAt) };
    return subgroupPayload(verb, e, parent, times);
  };
  return { trigger: 'subgroup_hooks', groupIds: parent.traversalIds, payload };
}

async function fromProject(db: Db, e: ProjectEventV1, verb: string, occurredAt: string): Promise<HookEvent | null> {
  if ((verb !== 'created' && verb !== 'deleted') || !e.group_traversal_ids.length) return null;
  const payload = async () => {
    const owners = e.creator_id ? await userStore.findByIds(db, [e.creator_id]) : [];
    const project = verb === 'created' ? await projectStore.find(db, e.id, null) : null;
    const times = { created: hookTime(project?.createdAt ?? occurredAt), updated: hookTime(project?.updatedAt ?? occurredAt) };
    return projectPayload(verb, e, owners, times);
  };
  return { trigger: 'project_hooks', groupIds: e.group_traversal_ids, payload };
}

/** The hook delivery an event asks for, or null when no group hook scope covers it. */
export async function hookEventOf(db: Db, event: EventEnvelope, publicUrl: string): Promise<HookEvent | null> {
  const verb = verbOf(event.type);
  if (event.type.startsWith('work-items.issue.')) return fromIssue(db, event.data as IssueEventV1, verb, publicUrl);
  if (event.type.startsWith('work-items.note.')) return fromNote(db, event.data as NoteEventV1, verb, publicUrl);
  if (event.type.startsWith('identity.membership.')) return fromMembership(db, event.data as MembershipEventV1, verb, event.occurred_at);
  if (event.type.startsWith('identity.group.')) return fromGroup(db, event.data as GroupEventV1, verb, event.occurred_at);
  if (event.type.startsWith('identity.project.')) return fromProject(db, event.data as ProjectEventV1, verb, event.occurred_at);
  return null;
}
