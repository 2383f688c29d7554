import type { Label } from '../labels/label-store';
import type { MergeRequest } from '../merge-requests/merge-request-store';
import type { Milestone } from '../milestones/milestone-store';
import type { UserRow } from '../read-model/store';
import { ReferencedProject, ReferenceOrigin, references } from '../issues/references';
import { taskCompletion } from '../issues/tasks';
import { MilestoneUrls, toMilestone } from './milestone';
import { toTimeStats } from './time-stats';
import { timestamps } from './timestamps';
import { toUserBasic } from './user';

/** A merge request with what its entity embeds. */
export interface MergeRequestView {
  mergeRequest: MergeRequest;
  project: ReferencedProject;
  author: UserRow | null;
  closedBy: UserRow | null;
  mergedBy: UserRow | null;
  assignees: UserRow[];
  labels: Label[];
  milestone: Milestone | null;
}

/** Presentation options: base URL, milestone URLs and the reference origin. */
export interface MergeRequestOptions extends MilestoneUrls {
  origin: ReferenceOrigin;
}

function iso(d: Date | null): string | null {
  return d ? new Date(d).toISOString() : null;
}

/** GitLab's `MergeRequestBasic` (the fields a thin merge request can honestly fill). */
export function toMergeRequestBasic(v: MergeRequestView, o: MergeRequestOptions): Record<string, unknown> {
  const r = v.mergeRequest;
  const assignees = v.assignees.map((u) => toUserBasic(u));
  const status = r.state === 'opened' ? 'unchecked' : 'not_open';
  const milestone = v.milestone ? { ...toMilestone(v.milestone, o) } : null;
  return {
    id: r.id, iid: r.iid, project_id: r.projectId, title: r.title, description: r.description, state: r.state,
    ...timestamps(r),
    merged_by: toUserBasic(v.mergedBy), merge_user: toUserBasic(v.mergedBy), merged_at: iso(r.mergedAt),
    closed_by: toUserBasic(v.closedBy), closed_at: iso(r.closedAt),
    target_branch: r.targetBranch, source_branch: r.sourceBranch,
    user_notes_count: r.userNotesCount, upvotes: r.upvotes, downvotes: r.downvotes,
    author: toUserBasic(v.author), assignees, assignee: assignees[0] ?? null, reviewers: [],
    source_project_id: r.sourceProjectId, target_project_id: r.projectId,
    labels: v.labels.map((l) => l.title).sort(), draft: r.draft, imported: false, imported_from: 'none', work_in_progress: r.draft,
    milestone, merge_when_pipeline_succeeds: false, merge_status: status === 'unchecked' ? 'unchecked' : 'cannot_be_merged',
    detailed_merge_status: status, merge_after: null, sha: r.sha, merge_commit_sha: r.mergeCommitSha, squash_commit_sha: null,
    discussion_locked: r.discussionLocked, should_remove_source_branch: r.removeSourceBranch, force_remove_source_branch: r.removeSourceBranch ?? false,
    prepared_at: iso(r.createdAt),
    reference: `!${r.iid}`,
    references: references(v.project, r.iid, o.origin, '!'),
    web_url: `${o.base}/${v.project.pathWithNamespace}/-/merge_requests/${r.iid}`,
    time_stats: toTimeStats(r), squash: r.squash, squash_on_merge: r.squash,
    task_completion_status: taskCompletion(r.description), has_conflicts: false, blocking_discussions_resolved: true,
  };
}

/** GitLab's `MergeRequest` entity: the basic fields plus diff refs, pipelines (none) and the caller's `can_merge`. */
export function toMergeRequest(v: MergeRequestView, o: MergeRequestOptions & { canMerge: boolean; subscribed?: boolean }): Record<string, unknown> {
  const out = toMergeRequestBasic(v, o);
  if (o.subscribed !== undefined) out.subscribed = o.subscribed;
  Object.assign(out, {
    changes_count: null, latest_build_started_at: null, latest_build_finished_at: null, first_deployed_to_production_at: null,
    pipeline: null, head_pipeline: null,
    diff_refs: { base_sha: null, head_sha: v.mergeRequest.sha, start_sha: null },
    merge_error: null, first_contribution: false, user: { can_merge: o.canMerge },
  });
  return out;
}
