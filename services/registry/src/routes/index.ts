import { Router } from 'express';
import { SHARED_ANSWER_HEADER } from '@anvil/auth';
import { conanGuard } from './guard';
import type { RouteDeps } from './route-deps';
import { mountSearch } from './search';
import { mountUsers } from './users';
import { mountV1Recipes, SERVER_CAPABILITIES } from './v1';
import { mountV1Files } from './v1-files';
import { mountV2 } from './v2';
import type { Level } from './conan-params';

function v1Router(deps: RouteDeps, level: Level, fipsMode: boolean): Router {
  const r = Router();
  r.use(conanGuard(fipsMode));
  // GET ping — GitLab: Conan v1, "Verify availability of a Conan repository"
  // The same answer for every caller: the gateway may give it again for 10 s (FIPS mode, which turns
  // it into a 404, is a start-up setting).
  r.get('/ping', (_req, res) => {
    res.setHeader('X-Conan-Server-Capabilities', SERVER_CAPABILITIES);
    res.setHeader(SHARED_ANSWER_HEADER, 'max-age=10');
    res.status(200).end();
  });
  mountUsers(r, deps);
  mountSearch(r, deps, level, 'v1');
  mountV1Recipes(r, deps, level);
  mountV1Files(r, deps, level);
  return r;
}

function v2Router(deps: RouteDeps, fipsMode: boolean): Router {
  const r = Router();
  r.use(conanGuard(fipsMode));
  mountUsers(r, deps);
  mountSearch(r, deps, 'project', 'v2');
  mountV2(r, deps);
  return r;
}

/**
 * Mounts every Conan route under /api/v4: v1 at instance level and under `/projects/:id`, v2 under
 * `/projects/:id`, and the instance-level v2 `users/authenticate`. With `fipsMode` all of them answer 404.
 */
export function mountRegistry(api: Router, deps: RouteDeps, fipsMode: boolean): void {
  const instanceV2 = Router();
  instanceV2.use(conanGuard(fipsMode));
  mountUsers(instanceV2, deps, { checkCredentials: false });

  api.use('/packages/conan/v1', v1Router(deps, 'instance', fipsMode));
  api.use('/packages/conan/v2', instanceV2);
  api.use('/projects/:id/packages/conan/v1', v1Router(deps, 'project', fipsMode));
  api.use('/projects/:id/packages/conan/v2', v2Router(deps, fipsMode));
}
