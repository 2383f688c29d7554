/**
 * Events the registry publishes (version 1). Proposed for `libs/events` contracts; kept here until then.
 * Routing keys: `registry.package.created`, `registry.package.deleted`.
 */
export const RegistryEvents = {
  packageCreated: 'registry.package.created',
  packageDeleted: 'registry.package.deleted',
} as const;

/** The producer name on every registry event. */
export const PRODUCER = 'registry';

/** registry.package.created | registry.package.deleted */
export interface PackageEventV1 {
  id: number;
  project_id: number;
  package_type: 'conan';
  name: string;
  version: string;
  package_username: string;
  package_channel: string;
}
