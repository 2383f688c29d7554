import { AccessLevel, type Actor, type ProjectScope } from '@anvil/auth';
import { actor, projectScope, startService, type SignedClient, type TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { commitFiles } from '../routes/support';

export { AccessLevel };

/** A `.gitlab-ci.yml` with three stages, a job allowed to fail and a manual deploy. */
export const CI_YAML = `
stages: [build, test, deploy]
variables:
  GLOBAL: "g"
build:
  stage: build
  script: [make]
unit:
  stage: test
  script: [make test]
lint:
  stage: test
  script: [make lint]
  allow_failure: true
deploy:
  stage: deploy
  script: [make deploy]
  when: manual
`;

/** A project with members at every level, and clients signed as each. */
export class PipelinesWorld {
  private static next = 7000;
  readonly users = {
    guest: actor('guest'), reporter: actor('reporter'), developer: actor('developer'), maintainer: actor('maintainer'),
    owner: actor('owner'), admin: actor('admin', { admin: true }), stranger: actor('stranger'),
  };

  constructor(readonly svc: TestService) {}

  /** A new project id with `visibility`. */
  project(visibility: ProjectScope['visibility'] = 'private'): ProjectScope {
    const id = PipelinesWorld.next++;
    return projectScope(id, { visibility, path_with_namespace: `grp/proj-${id}` });
  }

  /** The level each of `users` has. */
  levelOf(user: Actor | null): number {
    const u = this.users;
    const levels = new Map<Actor, number>([[u.guest, AccessLevel.GUEST], [u.reporter, AccessLevel.REPORTER], [u.developer, AccessLevel.DEVELOPER],
      [u.maintainer, AccessLevel.MAINTAINER], [u.owner, AccessLevel.OWNER], [u.admin, 0]]);
    return user ? (levels.get(user) ?? 0) : 0;
  }

  /** A client signed as `user` (null: anonymous) on `project`. */
  as(user: Actor | null, project: ProjectScope): SignedClient {
    return this.svc.as({ user, project: { ...project, access_level: this.levelOf(user) } });
  }

  /** Commits `files` (default: the CI file) on `branch`, creating it from `startBranch` when given. */
  commit(project: ProjectScope, files: Record<string, string> = { '.gitlab-ci.yml': CI_YAML }, branch = 'main', startBranch?: string): Promise<string> {
    return commitFiles(this.svc.deps.db, project.id, files, branch, startBranch);
  }

  /** Creates a pipeline on `ref` as the developer; returns the response body. */
  async pipeline(project: ProjectScope, ref = 'main', body: Record<string, unknown> = {}): Promise<any> {
    return (await this.as(this.users.developer, project).post(`/api/v4/projects/${project.id}/pipeline`).send({ ref, ...body }).expect(201)).body;
  }

  /** The current jobs of a pipeline by name. */
  async jobs(pipelineId: number): Promise<Record<string, any>> {
    const rows = await this.svc.deps.db('jobs').where({ pipeline_id: pipelineId, retried: false }).orderBy('id');
    return Object.fromEntries(rows.map((r) => [r.name, r]));
  }
}

/** Starts the pipelines service on a fresh schema. */
export async function startPipelines(): Promise<{ svc: TestService; world: PipelinesWorld }> {
  const svc = await startService(pipelinesService);
  return { svc, world: new PipelinesWorld(svc) };
}
