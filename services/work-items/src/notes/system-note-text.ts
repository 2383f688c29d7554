/**
 * The bodies of GitLab's system notes on issues, as pure functions (the newest texts of
 * `SystemNotes::IssuablesService` and `SystemNotes::TimeTrackingService`). Users are passed as
 * usernames, dates as YYYY-MM-DD, durations as seconds.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/services/system_notes/issuables_service.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/services/system_notes/time_tracking_service.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/diff/inline_diff_markdown_marker.rb
 */
import { toSentence } from '../quick-actions/arguments';
import { formatLongDate } from '../quick-actions/due-date';
import { formatDuration } from '../time-tracking/duration';
import { changedRanges } from './char-diff';

const mention = (usernames: readonly string[]) => toSentence(usernames.map((u) => `@${u}`));

/**
 * `change_issuable_assignees`: `assigned to @a`, `unassigned @b`, `assigned to @a and unassigned @b`
 * (lists as `@a, @b and @c`); '' when nothing changed.
 */
export function assigneesChangedText(oldUsernames: readonly string[], newUsernames: readonly string[]): string {
  const added = newUsernames.filter((u) => !oldUsernames.includes(u));
  const removed = oldUsernames.filter((u) => !newUsernames.includes(u));
  const parts: string[] = [];
  if (added.length) parts.push(`assigned to ${mention(added)}`);
  if (removed.length) parts.push(`unassigned ${mention(removed)}`);
  return parts.join(' and ');
}

/** Legacy single-assignee form (`change_assignee`): `assigned to @a` or `removed assignee`. */
export function assigneeChangedText(username: string | null): string {
  return username === null ? 'removed assignee' : `assigned to @${username}`;
}

/**
 * `StringRangeMarker#mark` with `InlineDiffMarkdownMarker`: wraps each inclusive character range
 * (code points) in `{-…-}` / `{+…+}`.
 */
export function markRanges(text: string, ranges: readonly [number, number][], symbol: '+' | '-'): string {
  const chars = Array.from(text);
  let out = '';
  let at = 0;
  for (const [from, to] of ranges) {
    out += chars.slice(at, from).join('') + `{${symbol}${chars.slice(from, to + 1).join('')}${symbol}}`;
    at = to + 1;
  }
  return out + chars.slice(at).join('');
}

/**
 * `change_title`: `changed title from **{-Old-} title** to **{+New+} title**`. The fragments come
 * from a character diff with semantic clean-up (`InlineDiff`); an empty old title gets no markers.
 */
export function titleChangedText(oldTitle: string, newTitle: string): string {
  if (oldTitle === '') return `changed title from **** to **${newTitle}**`;
  const ranges = changedRanges(oldTitle, newTitle);
  return `changed title from **${markRanges(oldTitle, ranges.old, '-')}** to **${markRanges(newTitle, ranges.new, '+')}**`;
}

/** `change_description`. */
export const DESCRIPTION_CHANGED = 'changed the description';

/** `change_task_status`: `marked the checklist item **x** as completed` / `incomplete`. */
export function checklistItemText(source: string, completed: boolean): string {
  return `marked the checklist item **${source}** as ${completed ? 'completed' : 'incomplete'}`;
}

/** `change_due_date`: `changed due date to September 20, 2018`, or `removed due date September 20, 2018` (old date). */
export function dueDateChangedText(newDate: string | null, oldDate: string | null): string {
  if (newDate !== null) return `changed due date to ${formatLongDate(newDate)}`;
  return oldDate === null ? 'removed due date' : `removed due date ${formatLongDate(oldDate)}`;
}

/** Durations as `Gitlab::TimeTrackingFormatter.output`; `limitToHours` is the instance setting. */
export interface DurationFormat {
  limitToHours?: boolean;
}

/** `change_time_estimate`: added / changed (`to 2h from 1h`) / removed (`of 2h`); '' when unchanged. */
export function timeEstimateChangedText(oldSeconds: number, newSeconds: number, fmt: DurationFormat = {}): string {
  const [from, to] = [formatDuration(oldSeconds, fmt), formatDuration(newSeconds, fmt)];
  if (oldSeconds === newSeconds) return '';
  if (oldSeconds === 0) return `added time estimate of ${to}`;
  if (newSeconds === 0) return `removed time estimate of ${from}`;
  return `changed time estimate to ${to} from ${from}`;
}

/**
 * `change_time_spent`: `added 1h 30m of time spent` / `subtracted 30m of time spent`, with
 * ` at YYYY-MM-DD` when the spent day is not `today`; `removed time spent` for a reset.
 */
export function timeSpentChangedText(seconds: number | 'reset', spentOn: string | null, today: string, fmt: DurationFormat = {}): string {
  if (seconds === 'reset') return 'removed time spent';
  const text = `${seconds > 0 ? 'added' : 'subtracted'} ${formatDuration(Math.abs(seconds), fmt)} of time spent`;
  return spentOn !== null && spentOn !== today ? `${text} at ${spentOn}` : text;
}

/** `remove_timelog`: `deleted 1h of spent time from YYYY-MM-DD` (a negative timelog shows `-30m`). */
export function timelogDeletedText(seconds: number, spentOn: string, fmt: DurationFormat = {}): string {
  return `deleted ${formatDuration(seconds, fmt)} of spent time from ${spentOn}`;
}

/** `change_issue_confidentiality`: `made the issue confidential` / `made the issue visible to everyone`. */
export function confidentialityChangedText(confidential: boolean, typeName = 'issue'): string {
  return confidential ? `made the ${typeName} confidential` : `made the ${typeName} visible to everyone`;
}

/** `discussion_lock`: `locked the discussion in this issue` (`merge request` for MRs). */
export function discussionLockText(locked: boolean, noteableName = 'issue'): string {
  return `${locked ? 'locked' : 'unlocked'} the discussion in this ${noteableName}`;
}

/** Where a referenced item lives, by full path (`group/sub/project`). */
export interface ReferenceTarget {
  /** `#` issues, `!` merge requests, `&` epics, `%` milestones. */
  prefix: string;
  iid: number;
  projectPath: string;
}

/**
 * `to_reference(from)`: `#12` in the same project, `project#12` in another project of the same
 * namespace, `group/project#12` elsewhere.
 */
export function crossReference(target: ReferenceTarget, fromProjectPath: string): string {
  if (target.projectPath === fromProjectPath) return `${target.prefix}${target.iid}`;
  const namespace = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
  const sameNamespace = namespace(target.projectPath) === namespace(fromProjectPath);
  const base = sameNamespace ? target.projectPath.slice(target.projectPath.lastIndexOf('/') + 1) : target.projectPath;
  return `${base}${target.prefix}${target.iid}`;
}

/** The word `gfm_reference` puts before a mentioning item's reference. */
export type MentionerKind = 'issue' | 'merge request' | 'commit' | 'epic' | 'snippet';

/**
 * `cross_reference`: `mentioned in issue #12`, `mentioned in merge request !3`, `mentioned in
 * commit 54f7727c`; `reference` is already relative to the mentioned item's project (`crossReference`).
 */
export function mentionedInText(kind: MentionerKind, reference: string): string {
  return `mentioned in ${kind} ${reference}`;
}

/** `mark_duplicate_issue`: `marked this issue as a duplicate of #1234`. */
export function markedDuplicateText(canonicalReference: string): string {
  return `marked this issue as a duplicate of ${canonicalReference}`;
}

/** `mark_canonical_issue_of_duplicate`: `marked #5 as a duplicate of this issue`. */
export function markedCanonicalText(duplicateReference: string): string {
  return `marked ${duplicateReference} as a duplicate of this issue`;
}

/** `relate_issuable` / `unrelate_issuable`: `marked this issue as related to #9` / `removed the relation with #9`. */
export function relationText(related: boolean, reference: string): string {
  return related ? `marked this issue as related to ${reference}` : `removed the relation with ${reference}`;
}

/** `noteable_moved` / `noteable_cloned`: `moved to grp/proj#11`, `moved from …`, `cloned to …`. */
export function movedText(verb: 'moved' | 'cloned', direction: 'to' | 'from', reference: string): string {
  return `${verb} ${direction} ${reference}`;
}

/** `change_issue_type`: `changed type from issue to incident`. */
export function typeChangedText(from: string, to: string): string {
  return `changed type from ${from} to ${to}`;
}
