import type { Response, Router } from 'express';
import { ctx, UnauthorizedError } from '@anvil/http';
import { mintConanJwt } from '@anvil/auth';
import { callerOf } from '../auth/policy';
import { markReusable } from './reusable';
import type { RouteDeps } from './route-deps';

/** `users/authenticate` and `users/check_credentials` (plain-text answers). */
export function mountUsers(router: Router, deps: RouteDeps, opts: { checkCredentials: boolean } = { checkCredentials: true }): void {
  // GET users/authenticate — GitLab: Conan shared endpoints, "Authenticate user against conan CLI"
  router.get('/users/authenticate', async (req, res) => {
    const c = ctx(req);
    const caller = callerOf(c);
    if (!caller.user || caller.tokenId === undefined) throw new UnauthorizedError();
    const expiresAt = await deps.tokenExpiry.of(c, caller.tokenId, caller.user.id);
    const token = mintConanJwt(deps.jwtSecret, { access_token: caller.tokenId, user_id: caller.user.id }, expiresAt);
    // the same token holds for the same credential: a login repeated within seconds gets it again
    markReusable(res);
    plainText(res, token);
  });

  if (!opts.checkCredentials) return;
  // GET users/check_credentials — GitLab: Conan shared endpoints, "Check for valid user credentials per conan CLI"
  router.get('/users/check_credentials', (req, res) => {
    if (!callerOf(ctx(req)).user) throw new UnauthorizedError();
    plainText(res, 'ok');
  });
}

/** A plain-text answer with GitLab's exact `Content-Type: text/plain` (express's `type`, `set` and a string body would add a charset). */
function plainText(res: Response, text: string): void {
  res.setHeader('Content-Type', 'text/plain');
  res.send(Buffer.from(text, 'utf8'));
}
