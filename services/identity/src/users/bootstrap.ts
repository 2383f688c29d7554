import { hashToken } from '@anvil/auth';
import type { IdentityContext } from '../deps';
import { tokenStore } from '../tokens/token-store';
import { createUser } from './create-user';
import { hashPassword } from './passwords';
import { User } from './user';
import { userStore } from './user-store';

/** The administrator created on first start. */
export const ROOT = { username: 'root', name: 'Administrator', email: 'admin@example.com' };
/** Scopes of the bootstrap token. */
export const BOOTSTRAP_SCOPES = ['api', 'sudo', 'admin_mode'];

/** What the first start may be given. */
export interface BootstrapOptions {
  /** A token value that must authenticate as root (only its digest is stored). */
  adminToken?: string;
  /** Root's password, set on every start when given. */
  adminPassword?: string;
}

/**
 * Makes sure the administrator `root` exists (created once), that `adminToken` is a
 * non-expiring, unrevoked api+sudo+admin_mode token of root, and that root's password is
 * `adminPassword`. Serialised with an advisory lock so replicas starting together agree.
 */
export async function bootstrapAdmin(ctx: IdentityContext, opts: BootstrapOptions): Promise<User> {
  const lock = await ctx.db.client.acquireConnection();
  try {
    await ctx.db.raw("SELECT pg_advisory_lock(hashtext('anvil-identity-bootstrap'))").connection(lock);
    let root = await userStore.findByUsername(ctx.db, ROOT.username);
    if (!root) root = await createUser(ctx, { ...ROOT, force_random_password: true, admin: true, skip_confirmation: true }, null);
    if (opts.adminPassword) await userStore.update(ctx.db, root.id, { password_digest: await hashPassword(opts.adminPassword) });
    if (opts.adminToken) await ensureToken(ctx, root.id, opts.adminToken);
    return root;
  } finally {
    await ctx.db.raw("SELECT pg_advisory_unlock(hashtext('anvil-identity-bootstrap'))").connection(lock);
    await ctx.db.client.releaseConnection(lock);
  }
}

async function ensureToken(ctx: IdentityContext, userId: number, value: string): Promise<void> {
  const digest = hashToken(value);
  const existing = await tokenStore.findByDigest(ctx.db, digest);
  const wanted = { user_id: userId, scopes: BOOTSTRAP_SCOPES, expires_at: null, revoked: false };
  if (!existing) {
    await tokenStore.insert(ctx.db, { user_id: userId, name: 'bootstrap administrator token', description: 'Created at start from ADMIN_TOKEN', scopes: BOOTSTRAP_SCOPES, token_digest: digest, expires_at: null });
  } else {
    await tokenStore.reset(ctx.db, existing.id, wanted);
  }
}
