import type { SamlGroupLink } from '../saml/saml-group-link';

/** `SamlGroupLink`: `{name, access_level, member_role_id, provider}`. */
export function toSamlGroupLink(l: SamlGroupLink) {
  return { name: l.name, access_level: l.accessLevel, member_role_id: l.memberRoleId, provider: l.provider };
}
