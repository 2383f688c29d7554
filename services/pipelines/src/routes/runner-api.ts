import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import type { IdentityClient } from '@anvil/auth';
import { ctx, HttpError, p, params, UnauthorizedError } from '@anvil/http';
import { toRunnerRegistrationDetails } from '../entities/runner-registration';
import { runnerStore } from '../runners/runner-store';
import { authenticateRunner, createRunner } from '../runners/runner-service';
import { ACCESS_LEVELS, RUNNER_TYPES } from '../runners/types';

/** What the runner lifecycle routes need. */
export interface RunnerApiDeps {
  db: Knex;
  identity: Pick<IdentityClient, 'resolveGroup' | 'resolveProject'>;
}

const createParams = params({
  runner_type: p.enum(RUNNER_TYPES).required(),
  group_id: p.integer(),
  project_id: p.integer(),
  description: p.string(),
  maintenance_note: p.string(),
  paused: p.boolean(),
  locked: p.boolean(),
  access_level: p.enum(ACCESS_LEVELS),
  run_untagged: p.boolean(),
  tag_list: p.list(),
  maximum_timeout: p.integer(),
});
const tokenParams = params({ token: p.string().required() });

/** The runner token a runner sends: the `token` parameter, else the `Runner-Token` header. */
export function runnerToken(req: Request): string | undefined {
  const body = req.body as { token?: unknown } | undefined;
  const given = typeof body?.token === 'string' ? body.token : typeof req.query.token === 'string' ? req.query.token : undefined;
  return given ?? req.get('runner-token') ?? undefined;
}

/** `410 Gone` with the reason GitLab's deprecations give (see spec identity-and-alerting, Versioning). */
function gone(reason?: string): HttpError {
  return new HttpError(410, { message: reason ? `410 Gone - ${reason}` : '410 Gone' });
}

/** GitLab's runner lifecycle API: creation by a user, verification and deletion by the runner, and the removed registration-token routes. */
export function mountRunnerApi(router: Router, deps: RunnerApiDeps): void {
  // POST /user/runners
  router.post('/user/runners', async (req, res) => {
    const user = ctx(req).user;
    if (!user) throw new UnauthorizedError();
    const a = createParams.parse(req);
    if (a.runner_type === 'group_type' && a.group_id === undefined) throw new HttpError(400, { error: 'group_id is missing' });
    if (a.runner_type === 'project_type' && a.project_id === undefined) throw new HttpError(400, { error: 'project_id is missing' });
    const input = { runnerType: a.runner_type, groupId: a.runner_type === 'group_type' ? a.group_id : undefined, projectId: a.runner_type === 'project_type' ? a.project_id : undefined, description: a.description, maintenanceNote: a.maintenance_note, paused: a.paused, locked: a.locked, accessLevel: a.access_level, runUntagged: a.run_untagged, tagList: a.tag_list, maximumTimeout: a.maximum_timeout };
    const { runner, token } = await createRunner(deps, user, input);
    res.status(201).json(toRunnerRegistrationDetails(runner, token));
  });

  // POST /runners/verify
  router.post('/runners/verify', async (req, res) => {
    const token = runnerToken(req);
    if (!token) tokenParams.parse(req);
    const runner = await authenticateRunner(deps.db, token);
    await runnerStore.contacted(deps.db, runner.id, req.body?.info, false);
    res.status(200).json(toRunnerRegistrationDetails(runner, token!));
  });

  // DELETE /runners
  router.delete('/runners', async (req, res) => {
    const token = runnerToken(req);
    if (!token) tokenParams.parse(req);
    const runner = await authenticateRunner(deps.db, token);
    await runnerStore.delete(deps.db, runner.id);
    res.status(204).end();
  });

  // POST /runners (registration tokens are disallowed: every registration is refused)
  router.post('/runners', (req) => {
    const { token } = tokenParams.parse(req);
    if (token.trim() === '') throw new HttpError(403, { message: '403 Forbidden - invalid token supplied' });
    throw gone('runner registration disallowed');
  });

  // POST /runners/reset_registration_token, POST /projects/:id/runners/reset_registration_token, POST /groups/:id/runners/reset_registration_token
  for (const path of ['/runners/reset_registration_token', '/projects/:id/runners/reset_registration_token', '/groups/:id/runners/reset_registration_token']) {
    router.post(path, (req) => {
      if (!ctx(req).user) throw new UnauthorizedError();
      throw gone();
    });
  }
}
