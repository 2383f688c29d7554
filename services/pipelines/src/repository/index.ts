/** The repository: GitLab's Repository Files and Branches API subset over Git objects kept in Postgres. */
export { repositoryReader, readBlobAt } from './reader';
export { commitFile, type FileCommitInput, type FileCommitResult } from './commit-service';
export type { RepositoryReader, ResolvedRef } from './types';
