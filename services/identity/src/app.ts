import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import type { IdentityContext } from './deps';
import { groupHooksRoutes } from './routes/group-hooks';
import { groupsRoutes } from './routes/groups';
import { internalRoutes } from './routes/internal';
import { membersRoutes } from './routes/members';
import { personalAccessTokensRoutes } from './routes/personal-access-tokens';
import { projectsRoutes } from './routes/projects';
import { settingsRoutes } from './routes/settings';
import { usersRoutes } from './routes/users';

/** The domain context of a running service. */
export function identityContext(deps: ServiceDeps): IdentityContext {
  return { db: deps.db, publicUrl: String(deps.config.PUBLIC_URL ?? 'http://127.0.0.1:8080') };
}

/** Builds the identity service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const ictx = identityContext(deps);
  return serviceApp(deps, {
    api: (router) => {
      usersRoutes(router, ictx);
      personalAccessTokensRoutes(router, ictx);
      projectsRoutes(router, ictx);
      groupsRoutes(router, ictx);
      membersRoutes(router, ictx);
      settingsRoutes(router, ictx);
      groupHooksRoutes(router, ictx);
    },
    internal: (router) => internalRoutes(router, ictx),
  });
}
