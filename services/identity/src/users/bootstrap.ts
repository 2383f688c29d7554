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

/** What the first start may be given; later starts ignore both. */
export interface BootstrapOptions {
  /** A token value that authenticates as root once created (only its digest is stored). */
  adminToken?: string;
  /** Root's first password. */
  adminPassword?: string;
}

/**
 * Seeds an empty instance: creates the administrator `root` with `adminPassword` and `adminToken`
 * (a non-expiring api+sudo+admin_mode token). When root already exists nothing is touched, so a
 * restart never revives a revoked or expired bootstrap token nor resets a changed password.
 * Serialised with a transaction's advisory lock so replicas starting together agree (no session
 * state, so it holds through PgBouncer's transaction pooling too).
 */
export async function bootstrapAdmin(ctx: IdentityContext, opts: BootstrapOptions): Promise<User> {
  return ctx.db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('anvil-identity-bootstrap'))");
    const existing = await userStore.findByUsername(trx, ROOT.username);
    if (existing) return existing;
    const inTrx = { ...ctx, db: trx };
    const root = await createUser(inTrx, { ...ROOT, force_random_password: true, admin: true, skip_confirmation: true }, null);
    if (opts.adminPassword) await userStore.update(trx, root.id, { password_digest: await hashPassword(opts.adminPassword) });
    if (opts.adminToken) await tokenStore.insert(trx, { user_id: root.id, name: 'bootstrap administrator token', description: 'Created at first start from ADMIN_TOKEN', scopes: BOOTSTRAP_SCOPES, token_digest: hashToken(opts.adminToken), expires_at: null });
    return root;
  });
}
