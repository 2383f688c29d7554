import type { Router } from 'express';
import { HttpError, NotFoundError, p, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { readableProjectIds, resolveGroup, resolveProject } from '../internal/resolve';
import { isNumericRef } from '../namespaces/paths';
import { resolveToken } from '../tokens/token-service';
import { lookupUser } from '../users/authenticate';

const tokenParams = params({ token: p.string(), token_id: p.integer(), user_id: p.integer() });
const refParams = params({ ref: p.string().required().notBlank(), user_id: p.oneOf(p.integer(), p.enum([''] as const)) });
const readableParams = params({ user_id: p.oneOf(p.integer(), p.enum([''] as const)), min_access_level: p.integer() });

const userIdOf = (v: number | '' | undefined) => (typeof v === 'number' ? v : null);
const refOf = (ref: string) => (isNumericRef(ref) ? Number(ref) : ref);

/**
 * Service-to-service API under `/internal/v1` (behind `x-anvil-internal-token`; which caller may
 * call which route: `internal/callers.ts`); what `IdentityClient` in `@anvil/auth` calls.
 */
export function internalRoutes(router: Router, ictx: IdentityContext): void {
  // POST /internal/v1/tokens/resolve
  router.post('/v1/tokens/resolve', async (req, res) => {
    const input = tokenParams.parse(req);
    let result;
    if (input.token) result = await resolveToken(ictx, { token: input.token });
    else if (input.token_id !== undefined && input.user_id !== undefined) result = await resolveToken(ictx, { tokenId: input.token_id, userId: input.user_id });
    else throw new HttpError(400, { error: 'token is missing' });
    if ('error' in result) throw new HttpError(401, { error: result.error });
    res.json(result);
  });

  // GET /internal/v1/users/lookup
  router.get('/v1/users/lookup', async (req, res) => {
    const { ref } = refParams.parse(req);
    const actor = await lookupUser(ictx, ref);
    if (!actor) throw new NotFoundError('User');
    res.json(actor);
  });

  // GET /internal/v1/projects/resolve
  router.get('/v1/projects/resolve', async (req, res) => {
    const { ref, user_id } = refParams.parse(req);
    const scope = await resolveProject(ictx.db, refOf(ref), userIdOf(user_id));
    if (!scope) throw new NotFoundError('Project');
    res.json(scope);
  });

  // GET /internal/v1/groups/resolve
  router.get('/v1/groups/resolve', async (req, res) => {
    const { ref, user_id } = refParams.parse(req);
    const scope = await resolveGroup(ictx.db, refOf(ref), userIdOf(user_id));
    if (!scope) throw new NotFoundError('Group');
    res.json(scope);
  });

  // GET /internal/v1/projects/readable
  router.get('/v1/projects/readable', async (req, res) => {
    const { user_id, min_access_level } = readableParams.parse(req);
    res.json({ ids: await readableProjectIds(ictx.db, userIdOf(user_id), min_access_level || undefined) });
  });
}
