/**
 * One ndjson line per exported record, in GitLab's export tree shape
 * (`lib/gitlab/import_export/project/import_export.yml`; shared/reference/import-export.md §2).
 * Pure functions of rows.
 */

type Row = Record<string, unknown>;

const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v));
const day = (v: unknown): string | null => (v instanceof Date ? v.toISOString().slice(0, 10) : v === null || v === undefined ? null : String(v).slice(0, 10));

/** An `award_emoji` entry (no `awardable_id`). */
export function awardLine(a: Row): Row {
  return { user_id: a.user_id, name: a.name, awardable_type: a.awardable_type, created_at: iso(a.created_at), updated_at: iso(a.updated_at) };
}

/** A `notes` entry with its `author: {name}` and award emoji. */
export function noteLine(n: Row, authorName: string | null, awards: Row[]): Row {
  return {
    note: n.body, noteable_type: n.noteable_type, author_id: n.author_id, created_at: iso(n.created_at), updated_at: iso(n.updated_at),
    project_id: n.project_id, attachment: { url: null }, line_code: null, commit_id: null, system: n.system, st_diff: null,
    updated_by_id: n.updated_by_id ?? null, type: null, position: null, original_position: null, change_position: null,
    resolved_at: null, resolved_by_id: null, discussion_id: null, confidential: null, internal: n.internal, last_edited_at: iso(n.last_edited_at),
    author: { name: authorName }, award_emoji: awards.map(awardLine),
  };
}

/** A `labels` line, or the `label` inside a label link. */
export function labelLine(l: Row): Row {
  const priorities = l.priority === null || l.priority === undefined || !l.project_id ? [] : [{ project_id: l.project_id, priority: l.priority, created_at: iso(l.updated_at), updated_at: iso(l.updated_at) }];
  return {
    title: l.title, color: l.color, project_id: l.project_id, group_id: l.group_id, created_at: iso(l.created_at), updated_at: iso(l.updated_at),
    template: false, description: l.description, type: l.group_id ? 'GroupLabel' : 'ProjectLabel', priorities,
  };
}

/** A `label_links` entry of an issuable. */
export function labelLinkLine(targetType: string, l: Row): Row {
  return { target_type: targetType, created_at: iso(l.created_at), updated_at: iso(l.updated_at), label: labelLine(l) };
}

/** A `milestones` line, or the milestone embedded in an issuable. */
export function milestoneLine(m: Row): Row {
  return {
    iid: m.iid, title: m.title, project_id: m.project_id, group_id: m.group_id, description: m.description, due_date: day(m.due_date),
    created_at: iso(m.created_at), updated_at: iso(m.updated_at), start_date: day(m.start_date), state: m.state, events: [],
  };
}

/** A `timelogs` entry. */
export function timelogLine(t: Row): Row {
  return { time_spent: t.time_spent, user_id: t.user_id, project_id: t.project_id ?? null, spent_at: iso(t.spent_at), created_at: iso(t.created_at), updated_at: iso(t.created_at), summary: t.summary };
}

/** What an issuable line embeds. */
export interface Nested {
  notes: Row[];
  awards: Row[];
  labels: Row[];
  milestone: Row | null;
  assignees: number[];
  timelogs: Row[];
}

/** An `issues` line with its nested relations. */
export function issueLine(i: Row, n: Nested): Row {
  return {
    title: i.title, author_id: i.author_id, project_id: i.project_id, created_at: iso(i.created_at), updated_at: iso(i.updated_at),
    description: i.description, state: i.state, iid: i.iid, updated_by_id: null, confidential: i.confidential, closed_at: iso(i.closed_at),
    closed_by_id: i.closed_by_id, due_date: day(i.due_date), lock_version: 0, weight: i.weight, time_estimate: i.time_estimate,
    relative_position: i.relative_position, external_author: null, last_edited_at: null, last_edited_by_id: null,
    discussion_locked: i.discussion_locked, health_status: i.health_status, external_key: null, issue_type: i.issue_type,
    events: [], timelogs: n.timelogs, notes: n.notes, label_links: n.labels.map((l) => labelLinkLine('Issue', l)),
    ...(n.milestone ? { milestone: milestoneLine(n.milestone) } : {}),
    resource_label_events: [], resource_milestone_events: [], resource_state_events: [],
    issue_assignees: n.assignees.map((user_id) => ({ user_id })), award_emoji: n.awards.map(awardLine),
  };
}

/** A `merge_requests` line with its nested relations. */
export function mergeRequestLine(m: Row, n: Nested): Row {
  return {
    target_branch: m.target_branch, source_branch: m.source_branch, source_project_id: m.source_project_id, author_id: m.author_id,
    title: m.title, created_at: iso(m.created_at), updated_at: iso(m.updated_at), state: m.state, merge_status: 'can_be_merged',
    target_project_id: m.project_id, iid: m.iid, description: m.description, updated_by_id: null, merge_error: null,
    merge_params: {}, merge_when_pipeline_succeeds: false, merge_user_id: m.merged_by_id, merge_commit_sha: m.merge_commit_sha,
    squash: m.squash, discussion_locked: m.discussion_locked, time_estimate: m.time_estimate, draft: m.draft,
    diff_head_sha: m.sha, source_branch_sha: m.sha, target_branch_sha: null,
    notes: n.notes, label_links: n.labels.map((l) => labelLinkLine('MergeRequest', l)), ...(n.milestone ? { milestone: milestoneLine(n.milestone) } : {}),
    merge_request_assignees: n.assignees.map((user_id) => ({ user_id })), award_emoji: n.awards.map(awardLine), timelogs: n.timelogs,
    events: [], resource_label_events: [], resource_milestone_events: [], resource_state_events: [],
  };
}

/** A `snippets` line with its notes and award emoji. */
export function snippetLine(s: Row, n: Pick<Nested, 'notes' | 'awards'>): Row {
  return {
    title: s.title, content: s.content, author_id: s.author_id, project_id: s.project_id, created_at: iso(s.created_at), updated_at: iso(s.updated_at),
    file_name: s.file_name, description: s.description, visibility_level: s.visibility_level, type: 'ProjectSnippet',
    award_emoji: n.awards.map(awardLine), notes: n.notes,
  };
}
