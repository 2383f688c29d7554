import { randomBytes } from 'node:crypto';
import { hashToken } from '@anvil/auth';
import type { RunnerType } from './types';

/** The prefix of runner authentication tokens of runners created through the API (GitLab's `glrt-`). */
export const RUNNER_TOKEN_PREFIX = 'glrt-';
/** The prefix of CI job tokens (GitLab's `glcbt-`). */
export const JOB_TOKEN_PREFIX = 'glcbt-';

const TYPE_NUMBER: Record<RunnerType, number> = { instance_type: 1, group_type: 2, project_type: 3 };

/**
 * A new runner authentication token: `glrt-t<runner type number in hex>_` and ~160 random bits, as
 * `Ci::Runner#prefix_for_new_and_legacy_runner` shapes it (see reference/runner.md §1).
 */
export function newRunnerToken(type: RunnerType): string {
  return `${RUNNER_TOKEN_PREFIX}t${TYPE_NUMBER[type].toString(16)}_${randomBytes(20).toString('base64url').slice(0, 27)}`;
}

/** A new job token: `glcbt-` and ~160 random bits. */
export function newJobToken(): string {
  return `${JOB_TOKEN_PREFIX}${randomBytes(20).toString('base64url').slice(0, 27)}`;
}

/** The at-rest form of a runner or job token (SHA-256 hex). */
export function tokenDigest(token: string): string {
  return hashToken(token);
}
