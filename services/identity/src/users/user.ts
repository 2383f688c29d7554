import type { Actor } from '@anvil/auth';
import { dateOnly } from '../sql';
import type { Identity } from './identity-store';

/** A row of `users`. */
export interface UserRow {
  id: number;
  username: string;
  email: string;
  name: string;
  state: 'active' | 'blocked';
  admin: boolean;
  password_digest: string | null;
  external: boolean;
  bot: boolean;
  bio: string;
  location: string;
  public_email: string | null;
  website_url: string;
  organization: string;
  job_title: string;
  pronouns: string | null;
  linkedin: string;
  twitter: string;
  discord: string;
  github: string;
  note: string | null;
  commit_email: string | null;
  projects_limit: number;
  can_create_group: boolean;
  private_profile: boolean;
  theme_id: number;
  color_scheme_id: number;
  created_by_id: number | null;
  confirmed_at: Date | null;
  last_sign_in_at: Date | null;
  current_sign_in_at: Date | null;
  last_activity_on: Date | string | null;
  created_at: Date;
  updated_at: Date;
}

/** The fields a user has under the same name in its row and in the domain. */
type SameNamed = 'id' | 'username' | 'email' | 'name' | 'state' | 'admin' | 'external' | 'bot' | 'note';

/** A user as the domain sees it (the password digest never leaves the store layer's callers). */
export interface User extends Pick<UserRow, SameNamed> {
  passwordDigest: string | null;
  profile: {
    bio: string;
    location: string;
    publicEmail: string | null;
    websiteUrl: string;
    organization: string;
    jobTitle: string;
    pronouns: string | null;
    linkedin: string;
    twitter: string;
    discord: string;
    github: string;
  };
  commitEmail: string | null;
  projectsLimit: number;
  canCreateGroup: boolean;
  privateProfile: boolean;
  themeId: number;
  colorSchemeId: number;
  createdById: number | null;
  namespaceId: number | null;
  confirmedAt: Date | null;
  lastSignInAt: Date | null;
  currentSignInAt: Date | null;
  lastActivityOn: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** External identities, when loaded (`withIdentities`); the entities show [] otherwise. */
  identities?: Identity[];
}

/** Maps a `users` row (plus the personal namespace id when selected) to a User. */
export function toUser(row: UserRow & { namespace_id?: number | null }): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    state: row.state,
    admin: row.admin,
    passwordDigest: row.password_digest,
    external: row.external,
    bot: row.bot,
    profile: {
      bio: row.bio,
      location: row.location,
      publicEmail: row.public_email,
      websiteUrl: row.website_url,
      organization: row.organization,
      jobTitle: row.job_title,
      pronouns: row.pronouns,
      linkedin: row.linkedin,
      twitter: row.twitter,
      discord: row.discord,
      github: row.github,
    },
    note: row.note,
    commitEmail: row.commit_email,
    projectsLimit: row.projects_limit,
    canCreateGroup: row.can_create_group,
    privateProfile: row.private_profile,
    themeId: row.theme_id,
    colorSchemeId: row.color_scheme_id,
    createdById: row.created_by_id,
    namespaceId: row.namespace_id ?? null,
    confirmedAt: row.confirmed_at,
    lastSignInAt: row.last_sign_in_at,
    currentSignInAt: row.current_sign_in_at,
    lastActivityOn: dateOnly(row.last_activity_on),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The request-context identity of a user (what the gateway signs into every request). */
export function toActor(u: Pick<User, 'id' | 'username' | 'name' | 'admin' | 'state'>): Actor {
  return { id: u.id, username: u.username, name: u.name, admin: u.admin, state: u.state };
}
