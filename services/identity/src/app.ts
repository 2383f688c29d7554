import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import type { IdentityConfig } from './config';
import type { IdentityContext } from './deps';
import { groupPushRuleRoutes } from './routes/group-push-rule';
import { groupSshCertificatesRoutes } from './routes/group-ssh-certificates';

import { emailsRoutes } from './routes/emails';

import { groupShareRoutes } from './routes/group-share';
import { projectShareRoutes } from './routes/project-share';
import { groupHooksRoutes } from './routes/group-hooks';
import { groupsRoutes } from './routes/groups';
import { internalRoutes } from './routes/internal';
import { ldapGroupLinksRoutes } from './routes/ldap-group-links';
import { ldapProviders } from './ldap/ldap-provider';
import { membersRoutes } from './routes/members';
import { personalAccessTokensRoutes } from './routes/personal-access-tokens';
import { projectsRoutes } from './routes/projects';
import { samlGroupLinksRoutes } from './routes/saml-group-links';
import { settingsRoutes } from './routes/settings';
import { usersRoutes } from './routes/users';
import { usersUpdateRoutes } from './routes/users-update';
import { transferInternalRoutes } from './transfer/internal-routes';
import { InternalCallers } from './internal/callers';

/** The domain context of a running service. */
export function identityContext(deps: ServiceDeps): IdentityContext {
  return { db: deps.db, publicUrl: String(deps.config.PUBLIC_URL ?? 'http://127.0.0.1:8080') };
}

/** Builds the identity service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const ictx = identityContext(deps);
  const callers = new InternalCallers(deps.internalToken, (deps.config as Partial<IdentityConfig>).INTERNAL_API_TOKENS);
  return serviceApp(deps, {
    api: (router) => {
      usersRoutes(router, ictx);
      personalAccessTokensRoutes(router, ictx);
      projectsRoutes(router, ictx);
      groupShareRoutes(router, ictx);
      projectShareRoutes(router, ictx);
      groupsRoutes(router, ictx);
      membersRoutes(router, ictx);
      groupPushRuleRoutes(router, ictx);
      samlGroupLinksRoutes(router, ictx);
      groupSshCertificatesRoutes(router, ictx);

      emailsRoutes(router, ictx);
      usersUpdateRoutes(router, ictx);

      ldapGroupLinksRoutes(router, ictx, ldapProviders(deps.config as Partial<IdentityConfig>));
      settingsRoutes(router, ictx);
      groupHooksRoutes(router, ictx);
    },
    internalAuth: callers.authenticate,
    internal: (router) => {
      router.use(callers.authorize);
      internalRoutes(router, ictx);
      transferInternalRoutes(router, ictx);
    },
  });
}
