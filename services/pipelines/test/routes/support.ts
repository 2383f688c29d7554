import type { Knex } from 'knex';
import { commitFile } from '../../src/repository/commit-service';

const WHO = { name: 'A U Thor', email: 'a@example.com' };

/** Commits `files` one by one on `branch` of the project; returns the last commit's SHA. */
export async function commitFiles(db: Knex, projectId: number, files: Record<string, string>, branch = 'main', startBranch?: string): Promise<string> {
  let sha = '';
  let first = true;
  for (const [path, content] of Object.entries(files)) {
    const result = await commitFile(db, {
      projectId, actorId: 1, branch, ...(first && startBranch ? { startBranch } : {}), path, content: Buffer.from(content),
      action: 'create', message: `Add ${path}\n`, author: WHO, committer: WHO, canPushProtected: true,
    });
    first = false;
    sha = result.sha;
  }
  return sha;
}
