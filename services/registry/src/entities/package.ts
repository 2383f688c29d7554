import type { Package } from '../packages/types';

/** A package record, as GitLab serialises the destroyed row on the v1 `DELETE` of a recipe. */
export function toPackageRecord(pkg: Package) {
  return {
    id: pkg.id,
    project_id: pkg.projectId,
    created_at: pkg.createdAt.toISOString(),
    updated_at: pkg.updatedAt.toISOString(),
    name: pkg.name,
    version: pkg.version,
    package_type: 'conan',
    creator_id: null,
    status: 'default',
  };
}
