import type { Knex } from 'knex';
import type { MergeRequestView } from '../entities/merge-request';
import { labelFromRow, LabelRow } from '../labels/label-store';
import { milestonesByIds } from '../milestones/milestone-store';
import { projectsByIds, usersByIds, UserRow } from '../read-model/store';
import type { ReferencedProject } from '../issues/references';
import type { MergeRequest } from './merge-request-store';

/** Views of merge requests with their users, labels, milestones and projects, loaded in batches. */
export async function loadMergeRequestViews(db: Knex, rows: MergeRequest[], fallback?: ReferencedProject): Promise<{ views: MergeRequestView[]; projectPaths: Map<number, string> }> {
  const ids = rows.map((r) => r.id);
  const assignees: { merge_request_id: number; user_id: number }[] = ids.length ? await db('merge_request_assignees').whereIn('merge_request_id', ids).orderBy('user_id') : [];
  const labels: (LabelRow & { merge_request_id: number })[] = ids.length
    ? await db('merge_request_labels as ml').join('labels as l', 'l.id', 'ml.label_id').whereIn('ml.merge_request_id', ids).select('l.*', 'ml.merge_request_id')
    : [];
  const users = await usersByIds(db, [...rows.flatMap((r) => [r.authorId, r.closedById, r.mergedById] as number[]), ...assignees.map((a) => a.user_id)]);
  const milestones = await milestonesByIds(db, rows.map((r) => r.milestoneId).filter((m): m is number => m !== null));
  const projects = await projectsByIds(db, rows.map((r) => r.projectId));
  const refProjects = new Map<number, ReferencedProject>([...projects.values()].map((p) => [p.id, { id: p.id, path: p.path, pathWithNamespace: p.path_with_namespace, namespaceId: p.namespace_id }]));
  if (fallback && !refProjects.has(fallback.id)) refProjects.set(fallback.id, fallback);
  const views = rows.map((row): MergeRequestView => ({
    mergeRequest: row,
    project: refProjects.get(row.projectId) ?? { id: row.projectId, path: '', pathWithNamespace: '', namespaceId: 0 },
    author: users.get(row.authorId) ?? null,
    closedBy: row.closedById ? users.get(row.closedById) ?? null : null,
    mergedBy: row.mergedById ? users.get(row.mergedById) ?? null : null,
    assignees: assignees.filter((a) => a.merge_request_id === row.id).map((a) => users.get(a.user_id)).filter((u): u is UserRow => !!u),
    labels: labels.filter((l) => l.merge_request_id === row.id).map(labelFromRow),
    milestone: row.milestoneId ? milestones.get(row.milestoneId) ?? null : null,
  }));
  return { views, projectPaths: new Map([...refProjects.values()].map((p) => [p.id, p.pathWithNamespace])) };
}
