/** The outbound URL guard, shared with the other services that call user-given URLs. */
export { allowlisted, canonicalAddress, checkUrl, internalKind, isMetadataAddress, RESOLVE_TIMEOUT_MS, systemResolver } from '@anvil/http';
export type { GuardOptions, GuardResult, Resolver } from '@anvil/http';
