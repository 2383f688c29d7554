import { iso } from '../sql';
import type { UserBrief } from '../members/member';
import type { User } from '../users/user';

/**
 * GitLab's user entities, each adding to the one before:
 * UserBasic → User (single, regular) → UserPublic (current user) → UserWithAdmin → UserDetailsWithAdmin.
 */

const trimBase = (base: string) => base.replace(/\/$/, '');

/** `UserBasic`: id, username, name, state, locked, avatar_url, web_url. */
export function toUserBasic(u: UserBrief, base: string) {
  return { id: u.id, username: u.username, name: u.name, state: u.state, locked: false, avatar_url: null, web_url: `${trimBase(base)}/${u.username}` };
}

function workInformation(u: User): string | null {
  const { jobTitle, organization } = u.profile;
  if (jobTitle && organization) return `${jobTitle} at ${organization}`;
  return jobTitle || organization || null;
}

/** `User`: the single-user view for everyone. */
export function toUserEntity(u: User, base: string) {
  const p = u.profile;
  return {
    ...toUserBasic(u, base),
    created_at: iso(u.createdAt),
    bio: p.bio,
    location: p.location,
    public_email: p.publicEmail,
    linkedin: p.linkedin,
    twitter: p.twitter,
    discord: p.discord,
    github: p.github,
    website_url: p.websiteUrl,
    organization: p.organization,
    job_title: p.jobTitle,
    pronouns: p.pronouns,
    bot: u.bot,
    work_information: workInformation(u),
    followers: 0,
    following: 0,
    is_followed: false,
    local_time: null,
  };
}

/** `UserPublic`: the current user's own view (`GET /user`). */
export function toUserPublic(u: User, base: string) {
  return {
    ...toUserEntity(u, base),
    last_sign_in_at: iso(u.lastSignInAt),
    confirmed_at: iso(u.confirmedAt),
    last_activity_on: u.lastActivityOn,
    email: u.email,
    theme_id: u.themeId,
    color_scheme_id: u.colorSchemeId,
    projects_limit: u.projectsLimit,
    current_sign_in_at: iso(u.currentSignInAt),
    identities: (u.identities ?? []).map((i) => ({ provider: i.provider, extern_uid: i.externUid, saml_provider_id: i.samlProviderId })),
    can_create_group: u.canCreateGroup,
    can_create_project: u.projectsLimit > 0,
    two_factor_enabled: false,
    external: u.external,
    private_profile: u.privateProfile,
    commit_email: u.commitEmail && u.commitEmail !== '_private' ? u.commitEmail : u.email,
  };
}

/**
 * `UserWithAdmin`: what administrators see in lists, on create and on `GET /user`. One literal with
 * a fixed key set (`UserPublic`'s keys, then the administrator's), not spreads: a page of 100 users
 * is built in a fraction of the time.
 */
export function toUserWithAdmin(u: User, base: string, createdBy: UserBrief | null = null) {
  const p = u.profile;
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    state: u.state,
    locked: false,
    avatar_url: null,
    web_url: `${trimBase(base)}/${u.username}`,
    created_at: iso(u.createdAt),
    bio: p.bio,
    location: p.location,
    public_email: p.publicEmail,
    linkedin: p.linkedin,
    twitter: p.twitter,
    discord: p.discord,
    github: p.github,
    website_url: p.websiteUrl,
    organization: p.organization,
    job_title: p.jobTitle,
    pronouns: p.pronouns,
    bot: u.bot,
    work_information: workInformation(u),
    followers: 0,
    following: 0,
    is_followed: false,
    local_time: null,
    last_sign_in_at: iso(u.lastSignInAt),
    confirmed_at: iso(u.confirmedAt),
    last_activity_on: u.lastActivityOn,
    email: u.email,
    theme_id: u.themeId,
    color_scheme_id: u.colorSchemeId,
    projects_limit: u.projectsLimit,
    current_sign_in_at: iso(u.currentSignInAt),
    identities: (u.identities ?? []).map((i) => ({ provider: i.provider, extern_uid: i.externUid, saml_provider_id: i.samlProviderId })),
    can_create_group: u.canCreateGroup,
    can_create_project: u.projectsLimit > 0,
    two_factor_enabled: false,
    external: u.external,
    private_profile: u.privateProfile,
    commit_email: u.commitEmail && u.commitEmail !== '_private' ? u.commitEmail : u.email,
    is_admin: u.admin,
    note: u.note,
    namespace_id: u.namespaceId,
    created_by: createdBy ? toUserBasic(createdBy, base) : null,
    email_reset_offered_at: null,
  };
}

/** `UserDetailsWithAdmin`: an administrator's `GET /users/:id`. */
export function toUserDetailsWithAdmin(u: User, base: string, highestRole: number, createdBy: UserBrief | null = null) {
  return {
    ...toUserWithAdmin(u, base, createdBy),
    highest_role: highestRole,
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    sign_in_count: 0,
  };
}
