import type { Actor } from '@anvil/auth';
import { binary, readArchive } from './support/archive';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

let fleet: TransferFleet;
let owner: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet();
  owner = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

const SETTINGS = {
  issues_access_level: 'disabled', wiki_access_level: 'private', builds_access_level: 'private', ci_config_path: 'ci/main.yml', build_timeout: 7200,
  merge_method: 'rebase_merge', squash_option: 'always', only_allow_merge_if_pipeline_succeeds: true, public_jobs: false, request_access_enabled: false,
  build_git_strategy: 'clone', auto_cancel_pending_pipelines: 'disabled', build_coverage_regex: '\\d+%', keep_latest_artifact: false,
  ci_default_git_depth: 5, ci_forward_deployment_enabled: false, ci_job_token_scope_enabled: true, auto_devops_enabled: true, auto_devops_deploy_strategy: 'manual',
};

describe('export then import: the project attributes survive', () => {
  it('a project with non-default attributes, exported and imported, has the same values', async () => {
    const source = await fleet.makeProject(owner, { description: 'round trip', visibility: 'internal', default_branch: 'develop', ...SETTINGS });
    // Anvil has no archive route; the flag is set where identity stores it.
    await fleet.identity.deps.db('projects').where({ id: source.id }).update({ archived: true });

    const asOwner = async (id: number) => fleet.transfer.as({ user: owner, project: await fleet.scope(id, owner) });
    await (await asOwner(source.id)).post(`/api/v4/projects/${source.id}/export`).send({}).expect(202);
    await eventually(async () => (await fleet.transfer.deps.db('project_exports').where({ project_id: source.id, user_id: owner.id }).first())?.job_status === 'finished');
    const archive = (await (await asOwner(source.id)).get(`/api/v4/projects/${source.id}/export/download`).buffer(true).parse(binary).expect(200)).body as Buffer;

    const entries = await readArchive(archive);
    const body = (name: string) => entries.find((e) => e.name === name)?.body ?? '';
    expect(JSON.parse(body('./tree/project.json'))).toMatchObject({ description: 'round trip', visibility_level: 10, archived: true, default_branch: 'develop', ci_config_path: 'ci/main.yml', merge_requests_rebase_enabled: true, public_builds: false });
    const feature = body('./tree/project/project_feature.ndjson');
    expect(feature.endsWith('\n')).toBe(false);
    expect(JSON.parse(feature)).toMatchObject({ project_id: source.id, issues_access_level: 0, wiki_access_level: 10, builds_access_level: 10, repository_access_level: 20 });
    for (const name of ['ci_cd_settings', 'auto_devops']) expect(body(`./tree/project/${name}.ndjson`).endsWith('\n')).toBe(false);
    expect(JSON.parse(body('./tree/project/ci_cd_settings.ndjson'))).toEqual({ default_git_depth: 5, forward_deployment_enabled: false, job_token_scope_enabled: true });
    expect(JSON.parse(body('./tree/project/auto_devops.ndjson'))).toMatchObject({ project_id: source.id, enabled: true, deploy_strategy: 'manual' });

    const res = await fleet.transfer.as({ user: owner }).post('/api/v4/projects/import').field('path', 'copy').attach('file', archive, 'copy.tar.gz').expect(201);
    const status = await eventually(async () => {
      const b = (await (await asOwner(res.body.id)).get(`/api/v4/projects/${res.body.id}/import`)).body;
      return ['finished', 'failed'].includes(b.import_status) && b;
    });
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] });

    const get = async (id: number) => (await fleet.identity.as({ user: owner, project: await fleet.scope(id, owner) }).get(`/api/v4/projects/${id}`).expect(200)).body;
    const [before, after] = [await get(source.id), await get(res.body.id)];
    expect(after.path).toBe('copy');
    const compared = ['description', 'visibility', 'archived', 'default_branch', 'ci_config_path', 'build_timeout', 'merge_method', 'squash_option',
      'only_allow_merge_if_pipeline_succeeds', 'public_jobs', 'request_access_enabled', 'build_git_strategy', 'auto_cancel_pending_pipelines',
      'build_coverage_regex', 'keep_latest_artifact', 'issues_access_level', 'wiki_access_level', 'builds_access_level', 'issues_enabled', 'wiki_enabled', 'jobs_enabled',
      'ci_default_git_depth', 'ci_forward_deployment_enabled', 'ci_job_token_scope_enabled', 'auto_devops_enabled', 'auto_devops_deploy_strategy'];
    const pick = (p: Record<string, unknown>) => Object.fromEntries(compared.map((k) => [k, p[k]]));
    expect(pick(before)).toMatchObject({ description: 'round trip', visibility: 'internal', archived: true, default_branch: 'develop', ci_config_path: 'ci/main.yml', issues_access_level: 'disabled', wiki_access_level: 'private' });
    expect(pick(after)).toEqual(pick(before));
    // What identity stores, setting for setting.
    const stored = async (id: number) => (await fleet.identity.deps.db('projects').where({ id }).first()).settings;
    expect(await stored(res.body.id)).toMatchObject(SETTINGS);
  }, 60_000);
});
