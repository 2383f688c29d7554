import type { IdentityClient } from '@anvil/auth';
import type { TokenExpiry } from '../auth/token-expiry';
import type { RegistryDeps } from '../packages/deps';

/** What the route modules are built with. */
export interface RouteDeps {
  registry: RegistryDeps;
  identity: IdentityClient;
  tokenExpiry: TokenExpiry;
  jwtSecret: string;
}

/** The recipe path of every Conan recipe route (after the protocol prefix). */
export const R = '/conans/:package_name/:package_version/:package_username/:package_channel';
/** R + a recipe revision (v2). */
export const RR = `${R}/revisions/:recipe_revision`;
/** RR + a package reference (v2). */
export const PR = `${RR}/packages/:conan_package_reference`;
/** PR + a package revision (v2). */
export const PRR = `${PR}/revisions/:package_revision`;
