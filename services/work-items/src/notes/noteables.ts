import type { Knex } from 'knex';
import { AccessLevel, groupAccess, RequestContext } from '@anvil/auth';
import { projectContext, ProjectContext } from '../access/project-context';
import { ISSUE_ADMIN_LEVEL, Viewer, viewerOf } from '../access/viewer';
import { epicInGroups } from '../epics/epic-store';
import { findReadableIssue } from '../issues/issue-access';
import { findMergeRequest } from '../merge-requests/merge-request-store';
import { ensureActor } from '../read-model/store';
import { findVisible, snippetViewer } from '../snippets/snippet-finder';

/** The noteable types of GitLab's Notes API. */
export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic';

/** The project or group a noteable lives in, with the caller's standing there. */
export interface NoteParent {
  kind: 'project' | 'group';
  id: number;
  /** The caller's effective level (admins count as Owner). */
  level: number;
  viewer: Viewer;
  /** Archived projects take no writes. */
  archived: boolean;
  /** The project context, for project parents (quick actions need it); null for groups. */
  project: ProjectContext | null;
}

/** What notes are attached to: its identity, as the Note entity shows it, and the record itself. */
export interface Noteable {
  type: NoteableType;
  /** Database id (`noteable_id`). */
  id: number;
  /** `noteable_iid`: issues and merge requests only. */
  iid: number | null;
  projectId: number | null;
  groupId: number | null;
  discussionLocked: boolean;
  /** The issue, merge request or epic itself, for the quick actions of its type. */
  record: unknown;
}

/** How one noteable type is reached from its route's `:noteable_id`. */
export interface NoteableKind {
  type: NoteableType;
  /** What the route's `:id` names. */
  parent: 'project' | 'group';
  /** The route prefix, with `:id` and `:noteable_id`. */
  prefix: string;
  /** Whether notes on it may be internal (GitLab: issues, merge requests, epics). */
  internalNotes: boolean;
  /** The noteable if it exists and the caller may see it (GitLab's finder), else undefined (`404 Not found`). */
  find(db: Knex, parent: NoteParent, id: number, viewer: Viewer): Promise<Noteable | undefined>;
}

const issueKind: NoteableKind = {
  type: 'Issue',
  parent: 'project',
  prefix: '/projects/:id/issues/:noteable_id',
  internalNotes: true,
  async find(db, parent, iid) {
    const issue = await findReadableIssue(db, parent.project as ProjectContext, iid);
    return { type: 'Issue', id: issue.id, iid: issue.iid, projectId: issue.projectId, groupId: null, discussionLocked: !!issue.discussionLocked, record: issue };
  },
};

/** `read_merge_request`: everyone who sees a public or internal project; in a private one, Reporters and up. */
function canReadMergeRequests(pc: ProjectContext, viewer: Viewer): boolean {
  return pc.visibility !== 'private' || viewer.admin || pc.level >= AccessLevel.REPORTER;
}

const mergeRequestKind: NoteableKind = {
  type: 'MergeRequest',
  parent: 'project',
  prefix: '/projects/:id/merge_requests/:noteable_id',
  internalNotes: true,
  async find(db, parent, iid, viewer) {
    if (!canReadMergeRequests(parent.project as ProjectContext, viewer)) return undefined;
    const mr = await findMergeRequest(db, parent.id, iid);
    return mr && { type: 'MergeRequest', id: mr.id, iid: mr.iid, projectId: mr.projectId, groupId: null, discussionLocked: !!mr.discussionLocked, record: mr };
  },
};

const epicKind: NoteableKind = {
  type: 'Epic',
  parent: 'group',
  prefix: '/groups/:id/epics/:noteable_id',
  internalNotes: true,
  async find(db, parent, id, viewer) {
    const epic = await epicInGroups(db, [parent.id], id);
    if (!epic || (epic.confidential && !viewer.admin && parent.level < ISSUE_ADMIN_LEVEL)) return undefined;
    return { type: 'Epic', id: epic.id, iid: null, projectId: null, groupId: epic.groupId, discussionLocked: false, record: epic };
  },
};

const snippetKind: NoteableKind = {
  type: 'Snippet',
  parent: 'project',
  prefix: '/projects/:id/snippets/:noteable_id',
  internalNotes: false,
  async find(db, parent, id) {
    const lookup = await findVisible(db, parent.id, id, snippetViewer(parent.project as ProjectContext));
    if (!lookup.found) return undefined;
    return { type: 'Snippet', id: lookup.snippet.id, iid: null, projectId: lookup.snippet.projectId, groupId: null, discussionLocked: false, record: lookup.snippet };
  },
};

/** Every noteable type the Notes API serves, one entry each. */
export const NOTEABLE_KINDS: readonly NoteableKind[] = [issueKind, mergeRequestKind, snippetKind, epicKind];

/**
 * The parent of a notes request: the project (through `projectContext`) or the group of its
 * scope. With `forWrite`, the caller is recorded in the read model first, so what they write shows them.
 */
export async function noteParent(db: Knex, c: RequestContext, kind: NoteableKind, forWrite: boolean): Promise<NoteParent> {
  if (kind.parent === 'project') {
    const pc = await projectContext(db, c, forWrite);
    return { kind: 'project', id: pc.id, level: pc.level, viewer: pc.viewer, archived: pc.archived, project: pc };
  }
  if (forWrite && c.user) await ensureActor(db, c.user, c.base);
  return { kind: 'group', id: c.group?.id as number, level: groupAccess(c), viewer: viewerOf(c), archived: false, project: null };
}
