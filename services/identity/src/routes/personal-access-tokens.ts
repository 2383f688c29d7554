import type { Router } from 'express';
import type { RequestContext } from '@anvil/auth';
import { BadRequestError, ctx, NotFoundError, p, paginate, params, UnauthorizedError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toPersonalAccessToken, toPersonalAccessTokenWithToken } from '../entities/personal-access-token';
import { requireAdmin, requireUser } from '../policy';
import { Token, TOKEN_SCOPES, TokenRow, toToken } from '../tokens/token';
import { createToken, revokeToken } from '../tokens/token-service';
import { tokenStore } from '../tokens/token-store';
import { TokensFinder } from '../tokens/tokens-finder';
import { userStore } from '../users/user-store';
import { numericParam } from './helpers';

const createParams = params({
  name: p.string().required().notBlank(),
  scopes: p.array(p.enum(TOKEN_SCOPES)).required().notBlank(),
  expires_at: p.date(),
  description: p.string(),
});

const listParams = params({
  user_id: p.integer(),
  revoked: p.boolean(),
  state: p.enum(['active', 'inactive'] as const),
  search: p.string(),
  created_after: p.datetime(),
  created_before: p.datetime(),
  last_used_after: p.datetime(),
  last_used_before: p.datetime(),
});

/** The token this request was authenticated with (404 when it was not a personal access token). */
async function currentToken(ictx: IdentityContext, c: RequestContext): Promise<Token> {
  requireUser(c.user);
  const token = c.token_id ? await tokenStore.findById(ictx.db, c.token_id) : null;
  if (!token) throw new NotFoundError();
  return token;
}

/**
 * Personal access tokens. Self-service creation (`POST /user/personal_access_tokens`) accepts the
 * ordinary scopes here; newer GitLab releases restrict it to `k8s_proxy`/`self_rotate`.
 */
export function personalAccessTokensRoutes(router: Router, ictx: IdentityContext): void {
  // POST /users/:user_id/personal_access_tokens
  router.post('/users/:user_id/personal_access_tokens', async (req, res) => {
    const c = ctx(req);
    requireAdmin(c.user);
    const input = createParams.parse(req);
    const user = await userStore.findById(ictx.db, numericParam(req, 'user_id'));
    if (!user) throw new NotFoundError('User');
    const { token, secret } = await createToken(ictx, user.id, input);
    res.status(201).json(toPersonalAccessTokenWithToken(token, secret));
  });

  // POST /user/personal_access_tokens
  router.post('/user/personal_access_tokens', async (req, res) => {
    const me = requireUser(ctx(req).user);
    const input = createParams.parse(req);
    const { token, secret } = await createToken(ictx, me.id, input);
    res.status(201).json(toPersonalAccessTokenWithToken(token, secret));
  });

  // GET /personal_access_tokens
  router.get('/personal_access_tokens', async (req, res) => {
    const me = requireUser(ctx(req).user);
    const input = listParams.parse(req);
    if (input.user_id !== undefined && input.user_id !== me.id && !me.admin) throw new UnauthorizedError();
    const { items: rows, headers } = await paginate<TokenRow>(req, new TokensFinder(ictx.db, me, input).execute());
    res.set(headers);
    res.json(rows.map((r) => toPersonalAccessToken(toToken(r))));
  });

  // GET /personal_access_tokens/self
  router.get('/personal_access_tokens/self', async (req, res) => {
    res.json(toPersonalAccessToken(await currentToken(ictx, ctx(req))));
  });

  // GET /personal_access_tokens/:id
  router.get('/personal_access_tokens/:id', async (req, res) => {
    const me = requireUser(ctx(req).user);
    const token = await tokenStore.findById(ictx.db, numericParam(req, 'id'));
    if (!token || (token.userId !== me.id && !me.admin)) throw me.admin ? new NotFoundError() : new UnauthorizedError();
    res.json(toPersonalAccessToken(token));
  });

  // DELETE /personal_access_tokens/self
  router.delete('/personal_access_tokens/self', async (req, res) => {
    const token = await currentToken(ictx, ctx(req));
    if (token.revoked) throw new BadRequestError();
    await revokeToken(ictx, token);
    res.status(204).end();
  });

  // DELETE /personal_access_tokens/:id
  router.delete('/personal_access_tokens/:id', async (req, res) => {
    const me = requireUser(ctx(req).user);
    const token = await tokenStore.findById(ictx.db, numericParam(req, 'id'));
    if (!token) throw new NotFoundError();
    if ((token.userId !== me.id && !me.admin) || token.revoked) throw new BadRequestError();
    await revokeToken(ictx, token);
    res.status(204).end();
  });
}
