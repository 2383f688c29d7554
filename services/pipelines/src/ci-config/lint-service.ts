/**
 * CI Lint over the project's repository (GitLab's lib/api/lint.rb + Gitlab::Ci::Lint#legacy_validate):
 * picks the content and the commit its `include: local` files are read from, and for `dry_run` the ref
 * pipeline creation would use.
 */
import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import { NotFoundError } from '@anvil/http';
import { getCommit } from '../repository/repository-store';
import type { RepositoryReader } from '../repository/types';
import { lintCiConfig, LintResult } from './lint';
import type { CompileContext } from './types';

/** Where GitLab reads a project's CI configuration (`ci_config_path_or_default`). */
export const CI_CONFIG_PATH = '.gitlab-ci.yml';

/** The project being linted, and what the caller may do on it. */
export interface LintProject {
  id: number;
  pathWithNamespace: string;
  /** The public base URL (`http://host`), for the includes' links. */
  base: string;
  /** The caller's effective level (admins count as Owner). */
  level: number;
}

/** The message pipeline creation gives a caller without `create_pipeline` (Validate::Abilities). */
export const NO_PIPELINE_PERMISSION = 'Insufficient permissions to create a new pipeline';
const REFERENCE_NOT_FOUND = 'Reference not found';

/** A branch's head, or a commit named by its full SHA. */
async function resolveCommit(db: Knex, reader: RepositoryReader, projectId: number, ref: string): Promise<string | null> {
  const branch = await reader.resolveRef(db, projectId, ref);
  if (branch) return branch.sha;
  if (/^[0-9a-f]{40}$/.test(ref) && (await getCommit(db, projectId, ref))) return ref;
  return null;
}

function context(project: LintProject, reader: RepositoryReader, db: Knex, ref: string, sha: string | null, defaultBranch: string | null): CompileContext {
  return {
    ref,
    sha: sha ?? '',
    source: 'push',
    defaultBranch,
    projectPath: project.pathWithNamespace,
    projectWebUrl: `${project.base}/${project.pathWithNamespace}`,
    variables: {
      CI: 'true',
      GITLAB_CI: 'true',
      CI_PIPELINE_SOURCE: 'push',
      CI_COMMIT_REF_NAME: ref,
      CI_COMMIT_BRANCH: ref,
      CI_COMMIT_SHA: sha ?? '',
      CI_PROJECT_PATH: project.pathWithNamespace,
      ...(defaultBranch ? { CI_DEFAULT_BRANCH: defaultBranch } : {}),
    },
    readLocal: (path) => (sha ? reader.readFile(db, project.id, sha, path) : Promise.resolve(null)),
  };
}

async function dryRunResult(db: Knex, reader: RepositoryReader, project: LintProject, content: string, ref: string | null, defaultBranch: string | null): Promise<LintResult> {
  const refused = (message: string): LintResult => ({ valid: false, errors: [message], warnings: [], merged_yaml: null, includes: null, jobs: [] });
  if (project.level < AccessLevel.DEVELOPER) return refused(NO_PIPELINE_PERMISSION);
  const head = ref ? await reader.resolveRef(db, project.id, ref) : null;
  if (!ref || !head) return refused(REFERENCE_NOT_FOUND);
  return lintCiConfig(content, context(project, reader, db, ref, head.sha, defaultBranch), true);
}

/** Lints given content (POST): includes come from the default branch's head; `dryRun` simulates a pipeline on `ref`. */
export async function lintContent(
  db: Knex, reader: RepositoryReader, project: LintProject, content: string, opts: { dryRun: boolean; ref?: string },
): Promise<LintResult> {
  const defaultBranch = await reader.defaultBranch(db, project.id);
  if (opts.dryRun) return dryRunResult(db, reader, project, content, opts.ref ?? defaultBranch, defaultBranch);
  const head = defaultBranch ? await reader.resolveRef(db, project.id, defaultBranch) : null;
  return lintCiConfig(content, context(project, reader, db, opts.ref ?? defaultBranch ?? '', head?.sha ?? null, defaultBranch), false);
}

/**
 * Lints the repository's `.gitlab-ci.yml` (GET) at `contentRef` (default: the default branch);
 * 404 `Repository` for an empty repository, 404 `Commit` for an unknown ref.
 */
export async function lintRepository(
  db: Knex, reader: RepositoryReader, project: LintProject, opts: { dryRun: boolean; contentRef?: string; dryRunRef?: string },
): Promise<LintResult> {
  const defaultBranch = await reader.defaultBranch(db, project.id);
  if (!defaultBranch) throw new NotFoundError('Repository');
  const sha = await resolveCommit(db, reader, project.id, opts.contentRef ?? defaultBranch);
  if (!sha) throw new NotFoundError('Commit');
  const content = (await reader.readFile(db, project.id, sha, CI_CONFIG_PATH)) ?? '';
  if (opts.dryRun) return dryRunResult(db, reader, project, content, opts.dryRunRef ?? defaultBranch, defaultBranch);
  return lintCiConfig(content, context(project, reader, db, opts.contentRef ?? defaultBranch, sha, defaultBranch), false);
}
