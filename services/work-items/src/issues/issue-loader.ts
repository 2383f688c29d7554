import type { Knex } from 'knex';
import { queryPrepared } from '@anvil/db';
import type { IssueView } from '../entities/issue';
import type { MilestoneUrls } from '../entities/milestone';
import { epicFromRow, EpicRow, iterationFromRow, IterationRow } from '../epics/epic-store';
import { labelFromRow, LabelRow } from '../labels/label-store';
import { milestoneFromRow, MilestoneRow } from '../milestones/milestone-store';
import type { UserRow } from '../read-model/store';
import type { Issue } from './issue-row';
import type { ReferencedProject } from './references';

interface Bundle {
  assignees: { issue_id: number; user_id: number }[];
  labels: (LabelRow & { issue_id: number })[];
  users: UserRow[];
  milestones: MilestoneRow[];
  projects: { id: number; path: string; path_with_namespace: string; namespace_id: number }[];
  groups: { id: number; full_path: string }[];
  epics: EpicRow[];
  iterations: IterationRow[];
  mr_counts: { issue_id: number; n: number }[];
  subscriptions: { issue_id: number; subscribed: boolean }[];
  commented: number[];
}

/**
 * Everything the issue entity embeds for a page of issues, in ONE query: assignees, labels,
 * users (authors, closers, assignees), milestones, projects, groups (for URLs), epics,
 * iterations, merge request counts, and (with `subscriber`) the explicit subscriptions.
 */
const BUNDLE_SQL = `
WITH ids AS (SELECT unnest(CAST(:ids AS int[])) AS id)
SELECT
  (SELECT coalesce(json_agg(json_build_object('issue_id', a.issue_id, 'user_id', a.user_id) ORDER BY a.user_id), '[]')
     FROM issue_assignees a WHERE a.issue_id IN (SELECT id FROM ids)) AS assignees,
  (SELECT coalesce(json_agg(json_build_object('issue_id', il.issue_id, 'id', l.id, 'title', l.title, 'color', l.color,
      'description', l.description, 'project_id', l.project_id, 'group_id', l.group_id, 'priority', l.priority)), '[]')
     FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id IN (SELECT id FROM ids)) AS labels,
  (SELECT coalesce(json_agg(json_build_object('id', u.id, 'username', u.username, 'name', u.name, 'state', u.state,
      'avatar_url', u.avatar_url, 'web_url', u.web_url)), '[]')
     FROM users u WHERE u.id = ANY(CAST(:userIds AS int[]))
        OR u.id IN (SELECT a.user_id FROM issue_assignees a WHERE a.issue_id IN (SELECT id FROM ids))) AS users,
  (SELECT coalesce(json_agg(json_build_object('id', m.id, 'iid', m.iid, 'project_id', m.project_id, 'group_id', m.group_id,
      'title', m.title, 'description', m.description, 'state', m.state, 'due_date', m.due_date::text,
      'start_date', m.start_date::text, 'created_at', m.created_at, 'updated_at', m.updated_at)), '[]')
     FROM milestones m WHERE m.id = ANY(CAST(:milestoneIds AS int[]))) AS milestones,
  (SELECT coalesce(json_agg(json_build_object('id', p.id, 'path', p.path, 'path_with_namespace', p.path_with_namespace,
      'namespace_id', p.namespace_id)), '[]')
     FROM projects p WHERE p.id = ANY(CAST(:projectIds AS int[])) OR p.id IN (SELECT m.project_id FROM milestones m WHERE m.id = ANY(CAST(:milestoneIds AS int[])))) AS projects,
  (SELECT coalesce(json_agg(json_build_object('id', g.id, 'full_path', g.full_path)), '[]') FROM groups g
     WHERE g.id IN (SELECT group_id FROM milestones WHERE id = ANY(CAST(:milestoneIds AS int[]))
                    UNION SELECT group_id FROM epics WHERE id = ANY(CAST(:epicIds AS int[]))
                    UNION SELECT group_id FROM iterations WHERE id = ANY(CAST(:iterationIds AS int[])))) AS groups,
  (SELECT coalesce(json_agg(e), '[]') FROM epics e WHERE e.id = ANY(CAST(:epicIds AS int[]))) AS epics,
  (SELECT coalesce(json_agg(json_build_object('id', it.id, 'iid', it.iid, 'sequence', it.sequence, 'group_id', it.group_id,
      'title', it.title, 'description', it.description, 'state', it.state, 'start_date', it.start_date::text,
      'due_date', it.due_date::text, 'created_at', it.created_at, 'updated_at', it.updated_at)), '[]')
     FROM iterations it WHERE it.id = ANY(CAST(:iterationIds AS int[]))) AS iterations,
  (SELECT coalesce(json_agg(json_build_object('issue_id', x.issue_id, 'n', x.n)), '[]')
     FROM (SELECT issue_id, count(*)::int AS n FROM merge_request_issues WHERE issue_id IN (SELECT id FROM ids) GROUP BY issue_id) x) AS mr_counts,
  (SELECT coalesce(json_agg(json_build_object('issue_id', s.subscribable_id, 'subscribed', s.subscribed)), '[]')
     FROM subscriptions s WHERE s.user_id = :subscriber AND s.subscribable_type = 'Issue'
      AND s.subscribable_id IN (SELECT id FROM ids)) AS subscriptions,
  (SELECT coalesce(json_agg(DISTINCT n.noteable_id), '[]') FROM notes n WHERE n.author_id = :subscriber AND n.noteable_type = 'Issue'
      AND NOT n.system AND n.noteable_id IN (SELECT id FROM ids)) AS commented`;

function distinct(values: (number | null)[]): number[] {
  return [...new Set(values.filter((v): v is number => v !== null && v !== undefined))];
}

function group<T>(items: T[], key: (t: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** What `loadIssueViews` returns: the views in the rows' order, and the paths their URLs need. */
export interface LoadedIssues {
  views: IssueView[];
  urls: Omit<MilestoneUrls, 'base'>;
}

/** How `loadIssueViews` loads: whose subscription to compute, and a project to fall back on. */
export interface LoadOptions {
  /** Computes `subscribed` for this user (single-issue responses). */
  subscriber?: number | null;
  /** Used when a project has no read-model row yet (its event has not arrived). */
  fallbackProject?: ReferencedProject;
}

/** Turns issue rows into views with one database round trip, whatever the page size. */
export async function loadIssueViews(db: Knex, rows: Issue[], opts: LoadOptions = {}): Promise<LoadedIssues> {
  if (!rows.length) return { views: [], urls: { projectPaths: new Map(), groupPaths: new Map() } };
  const [b] = await queryPrepared<Bundle>(db, db.raw(BUNDLE_SQL, {
    ids: rows.map((x) => x.id),
    userIds: distinct(rows.flatMap((x) => [x.authorId, x.closedById])),
    milestoneIds: distinct(rows.map((x) => x.milestoneId)),
    projectIds: distinct(rows.map((x) => x.projectId)),
    epicIds: distinct(rows.map((x) => x.epicId)),
    iterationIds: distinct(rows.map((x) => x.iterationId)),
    subscriber: opts.subscriber ?? null,
  }));
  const users = new Map(b.users.map((u) => [u.id, u]));
  const assignees = group(b.assignees, (a) => a.issue_id);
  const labels = new Map([...group(b.labels, (l) => l.issue_id)].map(([id, rows]) => [id, rows.map(labelFromRow)]));
  const milestones = new Map(b.milestones.map((m) => [m.id, milestoneFromRow(m)]));
  const epics = new Map(b.epics.map((e) => [e.id, epicFromRow(e)]));
  const iterations = new Map(b.iterations.map((i) => [i.id, iterationFromRow(i)]));
  const mrCounts = new Map(b.mr_counts.map((c) => [c.issue_id, c.n]));
  const subs = new Map(b.subscriptions.map((s) => [s.issue_id, s.subscribed]));
  const commented = new Set(b.commented);
  const projects = new Map<number, ReferencedProject>(b.projects.map((p) => [p.id, { id: p.id, path: p.path, pathWithNamespace: p.path_with_namespace, namespaceId: p.namespace_id }]));
  if (opts.fallbackProject && !projects.has(opts.fallbackProject.id)) projects.set(opts.fallbackProject.id, opts.fallbackProject);
  const views = rows.map((row): IssueView => {
    const assigned = (assignees.get(row.id) ?? []).map((a) => users.get(a.user_id)).filter((u): u is UserRow => !!u);
    const view: IssueView = {
      issue: row,
      project: projects.get(row.projectId) ?? { id: row.projectId, path: '', pathWithNamespace: '', namespaceId: 0 },
      author: users.get(row.authorId) ?? null,
      closedBy: row.closedById ? users.get(row.closedById) ?? null : null,
      assignees: assigned,
      labels: labels.get(row.id) ?? [],
      milestone: row.milestoneId ? milestones.get(row.milestoneId) ?? null : null,
      epic: row.epicId ? epics.get(row.epicId) ?? null : null,
      iteration: row.iterationId ? iterations.get(row.iterationId) ?? null : null,
      mergeRequestsCount: mrCounts.get(row.id) ?? 0,
    };
    if (opts.subscriber !== undefined) view.subscribed = subscribedState(row, assigned, subs.get(row.id), opts.subscriber, commented.has(row.id));
    return view;
  });
  const projectPaths = new Map([...projects.values()].map((p) => [p.id, p.pathWithNamespace]));
  const groupPaths = new Map(b.groups.map((g) => [g.id, g.full_path]));
  return { views, urls: { projectPaths, groupPaths } };
}

/**
 * GitLab's `subscribed?`: an explicit subscription (or unsubscription) wins; otherwise
 * participants (author, assignees, commenters) are subscribed.
 */
export function subscribedState(row: Issue, assignees: { id: number }[], explicit: boolean | undefined, userId: number | null, commented = false): boolean {
  if (!userId) return false;
  if (explicit !== undefined) return explicit;
  return row.authorId === userId || assignees.some((a) => a.id === userId) || commented;
}
