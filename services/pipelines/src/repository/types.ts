/**
 * What the repository (src/repository/: GitLab's Repository Files and Branches API subset) offers
 * pipeline creation. Commits are Git's: 40-hex SHA-1 over blob, tree and commit objects.
 * See ../shared/reference/repository-files.md.
 */
import type { Knex } from 'knex';

/** A branch head resolved for a pipeline. */
export interface ResolvedRef {
  ref: string;
  /** The head commit's id. */
  sha: string;
  /** The head commit's first parent, or 40 zeros for a branch's first commit (GitLab's Gitlab::Git::SHA1_BLANK_SHA). */
  beforeSha: string;
}

/** Read access to the CI sources kept per project. */
export interface RepositoryReader {
  /** The branch head, or null for an unknown ref. */
  resolveRef(db: Knex, projectId: number, ref: string): Promise<ResolvedRef | null>;
  /** A file's text at a commit, or null when the commit has no such file. */
  readFile(db: Knex, projectId: number, sha: string, path: string): Promise<string | null>;
  /** The project's default branch, or null before its first commit. */
  defaultBranch(db: Knex, projectId: number): Promise<string | null>;
}
