import type { ProjectRef } from '../access/project';
import type { Integration } from '../integrations/integration-store';

/** GitLab's `Gitlab::Utils.slugify`: lower case, anything but `[a-z0-9]` → `-`, 63 characters, no edge dashes. */
export function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
}

/**
 * The integration's notify URL on the gateway, outside `/api/v4` as GitLab issues it:
 * `/<project>/prometheus/alerts/notify.json` for the Prometheus integration, else
 * `/<project>/alerts/notify/<name slug>/<endpoint identifier>.json`.
 */
export function notifyUrl(i: Integration, project: ProjectRef): string {
  const root = `${project.base}/${project.pathWithNamespace}`;
  if (i.type === 'prometheus') return `${root}/prometheus/alerts/notify.json`;
  return `${root}/alerts/notify/${slugify(i.name) || 'http-endpoint'}/${i.endpointIdentifier}.json`;
}

/**
 * An alert integration as the REST API shows it; `token` (the plain key) only in the answer to a
 * create or a reset. Custom payload mappings are not offered: `payload_example` is `{}` and the
 * mapping empty.
 */
export function toIntegration(i: Integration, project: ProjectRef, token?: string): Record<string, unknown> {
  return {
    id: i.id,
    name: i.name,
    type: i.type,
    active: i.active,
    url: notifyUrl(i, project),
    ...(token !== undefined ? { token } : {}),
    payload_example: '{}',
    payload_attribute_mapping: [],
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
  };
}
