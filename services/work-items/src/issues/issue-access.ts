import type { Knex } from 'knex';
import { RecordNotFoundError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import type { Issue } from './issue-row';
import { assigneeIds, findIssueByIid } from './issue-store';
import { canReadIssue } from './policy';

/**
 * The issue `iid` of the context's project if the caller may read it; otherwise GitLab's
 * `404 Not found` (a confidential issue the caller may not see does not exist for them).
 */
export async function findReadableIssue(db: Knex, pc: ProjectContext, iid: number): Promise<Issue> {
  const issue = await findIssueByIid(db, pc.id, iid);
  if (!issue) throw new RecordNotFoundError();
  if (issue.confidential && !canReadIssue(pc, issue, await assigneeIds(db, issue.id))) throw new RecordNotFoundError();
  return issue;
}
