import { HttpError, ParamError } from '@anvil/http';

/** GitLab's `render_api_error!(message, status)`: `{"message":"<message>"}`, 400 unless told. */
export class RepositoryError extends HttpError {
  constructor(message: string, status = 400) {
    super(status, { message });
  }
}

/** Commits::CreateService#validate_permissions!: the branch is protected against the caller. */
export const NOT_ALLOWED_TO_PUSH = 'You are not allowed to push into this branch';

/** Gitlab::Checks::BranchCheck: the default branch is never deleted through a push. */
export const DEFAULT_BRANCH_UNDELETABLE = 'The default branch of a project cannot be deleted.';

/** Postgres' invalid regular expression (SQLSTATE 2201B, a branch `regex`) → 400 `regex is invalid`. */
export function regexErrors(err: unknown): HttpError | undefined {
  return (err as { code?: string })?.code === '2201B' ? new ParamError('regex is invalid') : undefined;
}
