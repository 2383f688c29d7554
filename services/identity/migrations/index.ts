import type { Migration } from '@anvil/db';
import * as createOutbox from './20261122000000_create_outbox';
import * as createUsers from './20261122000100_create_users';
import * as createPersonalAccessTokens from './20261122000200_create_personal_access_tokens';
import * as createNamespaces from './20261122000300_create_namespaces';
import * as createProjects from './20261122000400_create_projects';
import * as createMembers from './20261122000500_create_members';
import * as createEmails from './20261125000100_create_emails';
import * as createGroupGroupLinks from './20261125000200_create_group_group_links';
import * as createSettingsAndHooks from './20261125000300_create_settings_and_hooks';
import * as createLdapGroupLinks from './20261125000400_create_ldap_group_links';
import * as createPushRulesSamlSsh from './20261125000500_create_push_rules_saml_ssh';
import * as createProjectGroupLinks from './20261126000100_create_project_group_links';
import * as createListIndexes from './20261127001100_create_list_indexes';
import * as createUserSearchText from './20261128000200_create_user_search_text';

/** This service's migrations, in order. */
export const migrations: Migration[] = [
  { name: '20261122000000_create_outbox', ...createOutbox },
  { name: '20261122000100_create_users', ...createUsers },
  { name: '20261122000200_create_personal_access_tokens', ...createPersonalAccessTokens },
  { name: '20261122000300_create_namespaces', ...createNamespaces },
  { name: '20261122000400_create_projects', ...createProjects },
  { name: '20261122000500_create_members', ...createMembers },
  { name: '20261125000100_create_emails', ...createEmails },
  { name: '20261125000200_create_group_group_links', ...createGroupGroupLinks },
  { name: '20261125000300_create_settings_and_hooks', ...createSettingsAndHooks },
  { name: '20261125000400_create_ldap_group_links', ...createLdapGroupLinks },
  { name: '20261125000500_create_push_rules_saml_ssh', ...createPushRulesSamlSsh },
  { name: '20261126000100_create_project_group_links', ...createProjectGroupLinks },
  { name: '20261127001100_create_list_indexes', ...createListIndexes },
  { name: '20261128000200_create_user_search_text', ...createUserSearchText },
];
