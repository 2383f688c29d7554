import { groupLinkEventData, publish } from '../events/publish';
import { groupLinkStore } from './group-link-store';
import { memberStore } from '../members/member-store';
import { NamespaceRow, toNamespace } from '../namespaces/namespace';
import { namespaceSelect, namespaceStore } from '../namespaces/namespace-store';
import { Project, ProjectRow, toProject } from '../projects/project';
import { projectSelect, projectStore } from '../projects/project-store';
import type { Db } from '../sql';

/** Deletes projects with their memberships, writing `membership.deleted` and `project.deleted` events. */
export async function deleteProjects(trx: Db, publicUrl: string, projects: Project[]): Promise<void> {
  const ids = projects.map((p) => p.id);
  const members = await memberStore.deleteForSources(trx, 'Project', ids);
  await projectStore.delete(trx, ids);
  for (const m of members) await publish.membership(trx, 'deleted', m);
  for (const p of projects) await publish.project(trx, 'deleted', p, publicUrl);
}

/**
 * Deletes a namespace, its descendants, their projects, all their memberships and the shares from
 * or to its groups (the caller's transaction), writing a deleted event for each, deepest groups last-in-first-out.
 */
export async function deleteNamespaceTree(trx: Db, publicUrl: string, namespaceId: number): Promise<void> {
  const ids = await namespaceStore.selfAndDescendantIds(trx, namespaceId);
  const projects = ((await projectSelect(trx, null).whereIn('p.namespace_id', ids).orderBy('p.id')) as ProjectRow[]).map(toProject);
  const groups = ((await namespaceSelect(trx).whereIn('namespaces.id', ids).orderByRaw('cardinality(namespaces.traversal_ids) DESC, namespaces.id')) as NamespaceRow[]).map(toNamespace);
  await deleteProjects(trx, publicUrl, projects);
  const members = await memberStore.deleteForSources(trx, 'Namespace', ids);
  const links = await groupLinkStore.deleteForGroups(trx, ids);
  await trx('namespaces').where('id', namespaceId).delete();
  for (const l of links) await publish.groupLink(trx, 'deleted', groupLinkEventData(l));
  for (const m of members) await publish.membership(trx, 'deleted', m);
  for (const g of groups) if (g.kind === 'group') await publish.group(trx, 'deleted', g);
}
