import type { ProjectNamespace } from '../projects/project';

const trimBase = (base: string) => base.replace(/\/$/, '');

/** A namespace's web page: `/<username>` for a user, `/groups/<full_path>` for a group. */
export function namespaceWebUrl(ns: Pick<ProjectNamespace, 'kind' | 'fullPath'>, base: string): string {
  return ns.kind === 'user' ? `${trimBase(base)}/${ns.fullPath}` : `${trimBase(base)}/groups/${ns.fullPath}`;
}

/** `NamespaceBasic`: id, name, path, kind, full_path, parent_id, avatar_url, web_url. */
export function toNamespaceBasic(ns: ProjectNamespace, base: string) {
  return { id: ns.id, name: ns.name, path: ns.path, kind: ns.kind, full_path: ns.fullPath, parent_id: ns.parentId, avatar_url: null, web_url: namespaceWebUrl(ns, base) };
}
