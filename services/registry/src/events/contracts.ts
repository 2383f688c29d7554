/**
 * The registry's events: contracts (`PackageEventV1`, `RegistryEvents`) live in `@anvil/events`;
 * this file names the producer and re-exports them for the registry's code.
 */
export { RegistryEvents, type PackageEventV1 } from '@anvil/events';

/** The producer name on every registry event. */
export const PRODUCER = 'registry';
