import { EmailEvents, EmailEventV1, emit, GroupEventV1, GroupLinkEventV1, GroupLinkEvents, ProjectGroupLinkEvents, ProjectGroupLinkEventV1, IdentityEvents, LdapEvents, LdapSyncRequestedV1, MembershipEventV1, ProjectEventV1, PushRuleEvents, PushRuleEventV1, SamlGroupLinkEvents, SamlGroupLinkEventV1, SettingsEvents, SettingsEventV1, SshCertificateEvents, SshCertificateEventV1, TokenEventV1, UserEventV1 } from '@anvil/events';
import type { Email } from '../emails/email';
import type { Member } from '../members/member';
import type { Namespace } from '../namespaces/namespace';
import type { Project } from '../projects/project';
import type { PushRule } from '../push-rules/push-rule';
import type { SamlGroupLink } from '../saml/saml-group-link';
import type { SshCertificate } from '../ssh-certificates/ssh-certificate';
import { Db, iso } from '../sql';
import type { User } from '../users/user';

/** The producer name on every identity event. */
export const PRODUCER = 'identity';

type Verb = 'created' | 'updated' | 'deleted';

const base = (url: string) => url.replace(/\/$/, '');

/** The contract data of a user event. */
export function userEventData(u: User, publicUrl: string): UserEventV1 {
  return { id: u.id, username: u.username, name: u.name, state: u.state, avatar_url: null, web_url: `${base(publicUrl)}/${u.username}`, admin: u.admin };
}

/** The contract data of a group event. */
export function groupEventData(g: Namespace): GroupEventV1 {
  return { id: g.id, name: g.name, path: g.path, full_path: g.fullPath, parent_id: g.parentId, visibility: g.visibility, traversal_ids: g.traversalIds };
}

/** The contract data of a project event. */
export function projectEventData(p: Project, publicUrl: string): ProjectEventV1 {
  const isGroup = p.namespace.kind === 'group';
  return {
    id: p.id,
    name: p.name,
    path: p.path,
    path_with_namespace: p.pathWithNamespace,
    namespace_id: p.namespace.id,
    namespace_kind: p.namespace.kind,
    group_id: isGroup ? p.namespace.id : null,
    group_traversal_ids: isGroup ? p.namespace.traversalIds : [],
    visibility: p.visibility,
    archived: p.archived,
    creator_id: p.creatorId,
    web_url: `${base(publicUrl)}/${p.pathWithNamespace}`,
  };
}

/** The contract data of a membership event. */
export function membershipEventData(m: Pick<Member, 'sourceType' | 'sourceId' | 'accessLevel' | 'expiresAt'> & { user: { id: number } }): MembershipEventV1 {
  return { source_type: m.sourceType, source_id: m.sourceId, user_id: m.user.id, access_level: m.accessLevel, expires_at: m.expiresAt };
}

/** The contract data of a group link event. */
export function groupLinkEventData(l: { sharedGroupId: number; sharedGroupTraversalIds: number[]; sharedWithGroupId: number; groupAccess: number; expiresAt: string | null }): GroupLinkEventV1 {
  return { shared_group_id: l.sharedGroupId, shared_group_traversal_ids: l.sharedGroupTraversalIds, shared_with_group_id: l.sharedWithGroupId, group_access: l.groupAccess, expires_at: l.expiresAt };
}

/** The contract data of an e-mail event. */
export function emailEventData(e: Email): EmailEventV1 {
  return { id: e.id, user_id: e.userId, email: e.email, confirmed_at: iso(e.confirmedAt) };
}

/** The contract data of a token event. */
export function tokenEventData(t: { id: number; userId: number }): TokenEventV1 {
  return { id: t.id, user_id: t.userId };
}

const TYPES = {
  user: { created: IdentityEvents.userCreated, updated: IdentityEvents.userUpdated, deleted: IdentityEvents.userDeleted },
  group: { created: IdentityEvents.groupCreated, updated: IdentityEvents.groupUpdated, deleted: IdentityEvents.groupDeleted },
  project: { created: IdentityEvents.projectCreated, updated: IdentityEvents.projectUpdated, deleted: IdentityEvents.projectDeleted },
  membership: { created: IdentityEvents.membershipCreated, updated: IdentityEvents.membershipUpdated, deleted: IdentityEvents.membershipDeleted },
} as const;

/**
 * Writes identity events to the outbox in the caller's transaction (published by the relay only
 * after commit). One function per aggregate so the data always matches its contract.
 */
export const publish = {
  user: (trx: Db, verb: Verb, u: User, publicUrl: string) => emit(trx, PRODUCER, TYPES.user[verb], userEventData(u, publicUrl)),
  group: (trx: Db, verb: Verb, g: Namespace) => emit(trx, PRODUCER, TYPES.group[verb], groupEventData(g)),
  project: (trx: Db, verb: Verb, p: Project, publicUrl: string) => emit(trx, PRODUCER, TYPES.project[verb], projectEventData(p, publicUrl)),
  membership: (trx: Db, verb: Verb, m: Parameters<typeof membershipEventData>[0]) => emit(trx, PRODUCER, TYPES.membership[verb], membershipEventData(m)),
  groupLink: (trx: Db, verb: 'created' | 'deleted', l: GroupLinkEventV1) => emit(trx, PRODUCER, GroupLinkEvents[verb], l),
  projectGroupLink: (trx: Db, verb: 'created' | 'deleted', l: { projectId: number; groupId: number; groupAccess: number; expiresAt: string | null }) =>
    emit<ProjectGroupLinkEventV1>(trx, PRODUCER, ProjectGroupLinkEvents[verb], { project_id: l.projectId, group_id: l.groupId, group_access: l.groupAccess, expires_at: l.expiresAt }),
  tokenRevoked: (trx: Db, t: { id: number; userId: number }) => emit(trx, PRODUCER, IdentityEvents.tokenRevoked, tokenEventData(t)),
  email: (trx: Db, verb: keyof typeof EmailEvents, e: Email) => emit(trx, PRODUCER, EmailEvents[verb], emailEventData(e)),
  ldapSyncRequested: (trx: Db, groupId: number, actorId: number) => emit<LdapSyncRequestedV1>(trx, PRODUCER, LdapEvents.syncRequested, { group_id: groupId, actor_id: actorId }),
  settingsUpdated: (trx: Db, data: SettingsEventV1) => emit(trx, PRODUCER, SettingsEvents.updated, data),
  pushRule: (trx: Db, verb: Verb, r: PushRule, actorId: number) => emit<PushRuleEventV1>(trx, PRODUCER, PushRuleEvents[verb], { id: r.id, group_id: r.groupId, actor_id: actorId }),
  samlGroupLink: (trx: Db, verb: 'created' | 'deleted', l: SamlGroupLink, actorId: number) =>
    emit<SamlGroupLinkEventV1>(trx, PRODUCER, SamlGroupLinkEvents[verb], { id: l.id, group_id: l.groupId, saml_group_name: l.name, access_level: l.accessLevel, member_role_id: l.memberRoleId, provider: l.provider, actor_id: actorId }),
  sshCertificate: (trx: Db, verb: 'created' | 'deleted', c: SshCertificate, actorId: number) =>
    emit<SshCertificateEventV1>(trx, PRODUCER, SshCertificateEvents[verb], { id: c.id, group_id: c.groupId, title: c.title, fingerprint: c.fingerprint, actor_id: actorId }),
};
