import { FilterParser } from 'ldapts';
import { ConflictError, HttpError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { LdapGroupLink, ldapGroupLinkStore, LinkSelector } from './ldap-group-link';

/** What a new link is made of (exactly one of `cn`/`filter`, as the route guarantees). */
export interface LinkInput {
  cn?: string;
  filter?: string;
  provider: string;
  group_access: number;
}

/** GitLab's model validations, first full message first (the API answers 409 with it). */
function validationError(input: LinkInput): string | null {
  if (!input.cn && !input.filter) return 'Either LDAP group cn or LDAP user filter is required';
  if (input.cn && input.cn.length > 255) return 'Cn is too long (maximum is 255 characters)';
  if (!input.provider) return "Provider can't be blank";
  if (input.provider.length > 255) return 'Provider is too long (maximum is 255 characters)';
  if (input.filter !== undefined && input.filter.length > 8192) return 'Filter is too long (maximum is 8192 characters)';
  if (input.filter) {
    try {
      FilterParser.parseString(input.filter);
    } catch {
      return 'Filter is invalid';
    }
  }
  return null;
}

/** The links of a group; 404 `No linked LDAP groups found` when it has none. */
export async function listLinks(ctx: IdentityContext, groupId: number): Promise<LdapGroupLink[]> {
  const links = await ldapGroupLinkStore.forGroup(ctx.db, groupId);
  if (!links.length) throw new HttpError(404, { message: 'No linked LDAP groups found' });
  return links;
}

/**
 * Links a directory group (`cn`) or user filter to a group. Blank `cn`/`filter` count as absent;
 * a validation failure or a duplicate `cn`/`filter` for the provider → 409 with GitLab's message.
 */
export async function createLink(ctx: IdentityContext, groupId: number, input: LinkInput): Promise<LdapGroupLink> {
  const clean: LinkInput = { ...input, cn: input.cn || undefined, filter: input.filter || undefined };
  const error = validationError(clean);
  if (error) throw new ConflictError(error);
  try {
    return await ldapGroupLinkStore.insert(ctx.db, { group_id: groupId, cn: clean.cn ?? null, filter: clean.filter ?? null, provider: clean.provider, group_access: clean.group_access, member_role_id: null });
  } catch (e) {
    if (isUniqueViolation(e, 'ldap_group_links_cn_idx')) throw new ConflictError('Cn has already been taken');
    if (isUniqueViolation(e, 'ldap_group_links_filter_idx')) throw new ConflictError('Filter has already been taken');
    throw e;
  }
}

/** Deletes the first link matching `sel`; 404 `Linked LDAP group not found` when none does. */
export async function deleteLink(ctx: IdentityContext, groupId: number, sel: LinkSelector): Promise<void> {
  if (!(await ldapGroupLinkStore.deleteFirst(ctx.db, groupId, sel))) throw new HttpError(404, { message: 'Linked LDAP group not found' });
}
