/**
 * What the issue quick actions need to know, supplied by the caller so the command table stays
 * pure: the issue's state, the caller's permissions, and synchronous look-ups of what arguments name.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/services/quick_actions/interpret_service.rb
 */
import type { LabelQuery, MilestoneQuery, QuickActionUser } from './arguments';

/** A label as messages reference it. */
export interface QuickActionLabel {
  id: number;
  name: string;
}

/** A milestone with its Markdown reference (`%"v1.0"`, see `milestoneReference`). */
export interface QuickActionMilestone {
  id: number;
  reference: string;
}

/** Everything availability and execution depend on. */
export interface CommandContext {
  issue: {
    persisted: boolean;
    state: 'opened' | 'closed';
    labelIds: readonly number[];
    assignees: readonly QuickActionUser[];
    allowsMultipleAssignees: boolean;
    milestone: QuickActionMilestone | null;
    dueDate: string | null;
    confidential: boolean;
    discussionLocked: boolean;
    /** EE: `/promote` is offered (not yet promoted, epics licensed, rights in the group). */
    canBePromoted?: boolean;
  };
  /** `update_issue`, `set_issue_metadata` (= `admin_issue` on saved issues), `admin_issue`. */
  can: { update: boolean; setMetadata: boolean; admin: boolean; setConfidentiality: boolean; award: boolean };
  currentUser: QuickActionUser;
  hasPendingTodo: boolean;
  subscribed: boolean;
  labelsExist: boolean;
  activeMilestonesExist: boolean;
  findLabels(query: LabelQuery): QuickActionLabel[];
  findUsers(usernames: readonly string[]): QuickActionUser[];
  findMilestone(query: MilestoneQuery): QuickActionMilestone | null;
  /** The user's current day (YYYY-MM-DD) and instant: `/due`, `/spend` dates. */
  today: string;
  now: Date;
  /** The word for the target in messages (`issue`; `item` for work items). */
  targetName?: string;
  /** The instance setting "limit time tracking display to hours". */
  limitToHours?: boolean;
}

/** The `commands_changes` a run produced (only keys GitLab's `Note#commands_changes` exposes). */
export type CommandsChanges = Record<string, unknown>;

/** `Label#to_reference(format: :name)`: `~"name"`, or `~id` when the name holds a double quote. */
export function labelReference(label: QuickActionLabel): string {
  return label.name.includes('"') ? `~${label.id}` : `~"${label.name}"`;
}

/** `Milestone#to_reference` (name format): `%"title"`, or `%iid` when the title holds a double quote. */
export function milestoneReference(title: string, iid: number): string {
  return title.includes('"') ? `%${iid}` : `%"${title}"`;
}
