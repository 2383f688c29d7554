import type { Actor } from '@anvil/auth';
import { HttpError, NotFoundError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import type { Db } from '../sql';
import type { SamlGroupLink } from './saml-group-link';
import { samlGroupLinkStore } from './saml-group-link-store';

/** Roles a group can grant (GitLab's `access_level_roles`): Guest, Planner, Reporter, Developer, Maintainer, Owner. */
const GROUP_ROLES = [10, 15, 20, 30, 40, 50];

/** Attributes of a new link. */
export interface NewSamlGroupLink {
  saml_group_name: string;
  access_level: number;
  member_role_id?: number | null;
  provider?: string | null;
}

/** GitLab's "Failed to create" answer: 400 with the model's full messages joined by commas. */
function invalid(messages: string[]): HttpError {
  return new HttpError(400, { message: messages.join(',') });
}

function messagesFor(name: string, provider: string | null, accessLevel: number): string[] {
  const out: string[] = [];
  if (!name) out.push("Saml group name can't be blank");
  if (name.length > 255) out.push('Saml group name is too long (maximum is 255 characters)');
  if (provider && provider.length > 255) out.push('Provider is too long (maximum is 255 characters)');
  if (!GROUP_ROLES.includes(accessLevel)) out.push('Access level is invalid');
  return out;
}

/**
 * Links a SAML group to `groupId` (names and providers stripped, a blank provider kept as none)
 * and writes `identity.saml_group_link.created`. A name already linked with the same provider
 * is 400 `Saml group name has already been taken`.
 */
export async function createSamlGroupLink(ctx: IdentityContext, actor: Actor, groupId: number, input: NewSamlGroupLink): Promise<SamlGroupLink> {
  const name = input.saml_group_name.trim();
  const provider = input.provider?.trim() || null;
  const errors = messagesFor(name, provider, input.access_level);
  if (errors.length) throw invalid(errors);
  try {
    return await ctx.db.transaction(async (trx) => {
      const link = await samlGroupLinkStore.insert(trx, { namespace_id: groupId, saml_group_name: name, access_level: input.access_level, member_role_id: input.member_role_id ?? null, provider });
      await publish.samlGroupLink(trx, 'created', link, actor.id);
      return link;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'saml_group_links_name_idx')) throw invalid(['Saml group name has already been taken']);
    throw e;
  }
}

/**
 * The link named `name` in a group: with `provider` given, the one of that provider (blank: none);
 * otherwise the only one of that name. 404 when none; 422 when several need a provider to choose.
 */
export async function findSamlGroupLink(db: Db, groupId: number, name: string, provider?: string): Promise<SamlGroupLink> {
  const links = await samlGroupLinkStore.findByName(db, groupId, name, provider === undefined ? undefined : provider.trim() || null);
  if (links.length > 1) throw new HttpError(422, { message: 'Multiple group links found with the same name. Please specify a provider parameter to disambiguate.' });
  if (!links.length) throw new NotFoundError();
  return links[0];
}

/** Deletes a link and writes `identity.saml_group_link.deleted`. */
export async function deleteSamlGroupLink(ctx: IdentityContext, actor: Actor, link: SamlGroupLink): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await samlGroupLinkStore.delete(trx, link.id);
    await publish.samlGroupLink(trx, 'deleted', link, actor.id);
  });
}
