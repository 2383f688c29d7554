import type { Epic, Iteration } from '../epics/epic-store';
import type { Issue } from '../issues/issue-row';
import { ReferencedProject, ReferenceOrigin, references } from '../issues/references';
import { taskCompletion, taskStatus } from '../issues/tasks';
import type { Label } from '../labels/label-store';
import type { Milestone } from '../milestones/milestone-store';
import type { UserRow } from '../read-model/store';
import { toEpicBase, toIteration } from './epic';
import { toLabelBasic } from './label';
import { MilestoneUrls, toMilestone } from './milestone';
import { toTimeStats } from './time-stats';
import { toUserBasic } from './user';

/** An issue with everything its entity embeds, loaded in batches (see `loadIssueViews`). */
export interface IssueView {
  issue: Issue;
  project: ReferencedProject;
  author: UserRow | null;
  closedBy: UserRow | null;
  assignees: UserRow[];
  labels: Label[];
  milestone: Milestone | null;
  epic: Epic | null;
  iteration: Iteration | null;
  mergeRequestsCount: number;
  subscribed?: boolean;
}

/** How to present: the public base URL, where the request looks from, and the options GitLab has. */
export interface IssueOptions extends MilestoneUrls {
  origin: ReferenceOrigin;
  withLabelsDetails?: boolean;
}

function iso(d: Date | null): string | null {
  return d ? new Date(d).toISOString() : null;
}

function issueLabels(v: IssueView, details: boolean): unknown[] {
  const sorted = [...v.labels].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return details ? sorted.map(toLabelBasic) : sorted.map((l) => l.title);
}

/** The fields of GitLab's `IssueBasic`, in its order. */
function basic(v: IssueView, o: IssueOptions): Record<string, unknown> {
  const r = v.issue;
  const assignees = v.assignees.map((u) => toUserBasic(u));
  return {
    id: r.id,
    iid: r.iid,
    project_id: r.projectId,
    title: r.title,
    description: r.description,
    state: r.state,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    closed_at: iso(r.closedAt),
    closed_by: toUserBasic(v.closedBy),
    labels: issueLabels(v, !!o.withLabelsDetails),
    milestone: v.milestone ? toMilestone(v.milestone, o) : null,
    assignees,
    author: toUserBasic(v.author),
    type: r.issueType.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: r.userNotesCount,
    merge_requests_count: v.mergeRequestsCount,
    upvotes: r.upvotes,
    downvotes: r.downvotes,
    due_date: r.dueDate,
    confidential: r.confidential,
    discussion_locked: r.discussionLocked,
    issue_type: r.issueType,
    web_url: `${o.base}/${v.project.pathWithNamespace}/-/issues/${r.iid}`,
    time_stats: toTimeStats(r),
    task_completion_status: taskCompletion(r.description),
    weight: r.weight,
  };
}

/**
 * GitLab's `Issue` entity: `IssueBasic` plus tasks, `_links`, `references`, severity,
 * `subscribed` (only when the view carries it: single-issue responses, not lists), and the
 * higher-tier fields (`epic_iid`, `epic`, `iteration`, `health_status`).
 */
export function toIssue(v: IssueView, o: IssueOptions): Record<string, unknown> {
  const r = v.issue;
  const out = basic(v, o);
  const tasks = out.task_completion_status as ReturnType<typeof taskCompletion>;
  out.has_tasks = tasks.count > 0;
  if (tasks.count > 0) out.task_status = taskStatus(r.description);
  const self = `${o.base}/api/v4/projects/${r.projectId}/issues/${r.iid}`;
  out._links = {
    self,
    notes: `${self}/notes`,
    award_emoji: `${self}/award_emoji`,
    project: `${o.base}/api/v4/projects/${r.projectId}`,
    closed_as_duplicate_of: null,
  };
  out.references = references(v.project, r.iid, o.origin);
  out.severity = r.severity.toUpperCase();
  if (v.subscribed !== undefined) out.subscribed = v.subscribed;
  out.moved_to_id = r.movedToId;
  out.imported = false;
  out.imported_from = 'none';
  out.service_desk_reply_to = null;
  const epicGroup = v.epic ? o.groupPaths.get(v.epic.groupId) ?? '' : '';
  out.epic_iid = v.epic?.iid ?? null;
  out.epic = v.epic ? toEpicBase(v.epic, o.base, epicGroup) : null;
  out.iteration = v.iteration ? toIteration(v.iteration, o.base, o.groupPaths.get(v.iteration.groupId) ?? '') : null;
  out.health_status = r.healthStatus;
  return out;
}
