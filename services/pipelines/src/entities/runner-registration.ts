import type { Runner } from '../runners/types';

/** GitLab's `Entities::Ci::RunnerRegistrationDetails`: the runner's id and its token (no expiry configured). */
export function toRunnerRegistrationDetails(runner: Runner, token: string): { id: number; token: string; token_expires_at: null } {
  return { id: runner.id, token, token_expires_at: null };
}
