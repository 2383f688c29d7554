import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import { NotFoundError, RecordNotFoundError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import { ISSUE_ADMIN_LEVEL } from '../access/viewer';
import { canReadIssue } from '../issues/policy';
import { assigneeIds, findIssueByIid } from '../issues/issue-store';
import { findMergeRequest } from '../merge-requests/merge-request-store';
import { storableId } from './award-store';
import { canReadSnippet, snippetViewer } from '../snippets/snippet-finder';
import { findSnippet } from '../snippets/snippet-store';
import { findAwardableNote } from './awardable-store';

/** GitLab's polymorphic `awardable_type` values. */
export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Note';

/** A thing emoji are awarded to, with what the caller may do with it. */
export interface Awardable {
  type: AwardableType;
  id: number;
  projectId: number;
  /** GitLab's read ability on it (`read_issue`, `read_merge_request`, `read_snippet`, `read_note`/`read_internal_note`). */
  readable: boolean;
  /** GitLab's `award_emoji` ability on it. */
  canAward: boolean;
  /** `emoji_awardable?`: false for system notes. */
  emojiAwardable: boolean;
  /** The issue or merge request whose pending to-dos of the awarder an award marks done (`TodoService#new_award_emoji`). */
  todoTarget: { type: 'Issue' | 'MergeRequest'; id: number } | null;
  /** The table whose `upvotes`/`downvotes` counters follow this awardable's thumbs. */
  votesTable: 'issues' | 'merge_requests' | null;
}

/** One awardable type as its URL names it: `/projects/:id/<segment>/:<param>`. */
export interface AwardableKind {
  segment: string;
  param: string;
  /** The awardable `id` of the project (iid or id, as the URL says), or GitLab's `404 Not found`. */
  find(db: Knex, pc: ProjectContext, id: number): Promise<Awardable>;
}

/** Whether the caller may see the project at all (the gateway already hides what they may not). */
function projectReadable(pc: ProjectContext): boolean {
  if (pc.viewer.admin || pc.level > AccessLevel.NONE || pc.visibility === 'public') return true;
  return pc.visibility === 'internal' && !!pc.viewer.user;
}

/** `award_emoji` on a readable issuable: signed in, project writable, and members only when the discussion is locked. */
function canAwardIssuable(pc: ProjectContext, readable: boolean, locked: boolean | null): boolean {
  if (!pc.viewer.user || !readable || pc.archived) return false;
  return !locked || pc.viewer.admin || pc.level >= AccessLevel.GUEST;
}

const issues: AwardableKind = {
  segment: 'issues',
  param: 'issue_iid',
  async find(db, pc, iid) {
    const issue = await findIssueByIid(db, pc.id, iid);
    if (!issue) throw new RecordNotFoundError();
    const readable = canReadIssue(pc, issue, issue.confidential ? await assigneeIds(db, issue.id) : []);
    return {
      type: 'Issue', id: issue.id, projectId: pc.id, readable, canAward: canAwardIssuable(pc, readable, issue.discussionLocked),
      emojiAwardable: true, todoTarget: { type: 'Issue', id: issue.id }, votesTable: 'issues',
    };
  },
};

const mergeRequests: AwardableKind = {
  segment: 'merge_requests',
  param: 'merge_request_iid',
  async find(db, pc, iid) {
    const mr = await findMergeRequest(db, pc.id, iid);
    if (!mr) throw new RecordNotFoundError();
    return {
      type: 'MergeRequest', id: mr.id, projectId: pc.id, readable: true, canAward: canAwardIssuable(pc, true, mr.discussionLocked),
      emojiAwardable: true, todoTarget: { type: 'MergeRequest', id: mr.id }, votesTable: 'merge_requests',
    };
  },
};

const snippets: AwardableKind = {
  segment: 'snippets',
  param: 'snippet_id',
  async find(db, pc, id) {
    const snippet = await findSnippet(db, pc.id, id);
    if (!snippet) throw new RecordNotFoundError();
    const readable = canReadSnippet(snippetViewer(pc), snippet);
    return {
      type: 'Snippet', id: snippet.id, projectId: pc.id, readable, canAward: readable && !!pc.viewer.user && !pc.archived,
      emojiAwardable: true, todoTarget: null, votesTable: null,
    };
  },
};

/** Every awardable base, in the order GitLab declares them. */
export const AWARDABLE_KINDS: readonly AwardableKind[] = [issues, mergeRequests, snippets];

/**
 * The note `noteId` of `parent` as an awardable: readable when its noteable is, internal ones only
 * from Planner/Reporter up; never awardable when it is a system note. Another noteable's note is `404 Not found`.
 */
export async function findNoteAwardable(db: Knex, pc: ProjectContext, parent: Awardable, noteId: number): Promise<Awardable> {
  const note = storableId(noteId) ? await findAwardableNote(db, parent.type, parent.id, noteId) : undefined;
  if (!note) throw new RecordNotFoundError();
  const readable = parent.readable && (!note.internal || pc.viewer.admin || pc.level >= ISSUE_ADMIN_LEVEL);
  return {
    type: 'Note', id: note.id, projectId: pc.id, readable, canAward: readable && parent.canAward,
    emojiAwardable: !note.system, todoTarget: parent.todoTarget, votesTable: null,
  };
}

/** The awardable a request names: its base (`kind` and `id`), then the note when `noteId` is given. */
export async function findAwardable(db: Knex, pc: ProjectContext, kind: AwardableKind, id: number, noteId?: number): Promise<Awardable> {
  if (!projectReadable(pc)) throw new NotFoundError('Project');
  if (!storableId(id)) throw new RecordNotFoundError();
  const base = await kind.find(db, pc, id);
  return noteId === undefined ? base : findNoteAwardable(db, pc, base, noteId);
}
