import { randomBytes } from 'node:crypto';
import { type Fleet, startFleet } from '@anvil/testing';
import { PROJECT_SETTING_DEFAULTS } from '../../services/identity/src/projects/project-settings';
import { readArchive } from '../../services/project-transfer/test/support/archive';
import { type Entry, makeArchive, validEntries } from '../../services/project-transfer/test/support/hostile';
import { call, userWithToken } from './support/fleet-api';

/**
 * Project settings through an export and an import, through the gateway, with identity and
 * project-transfer as separate processes over RabbitMQ: an Anvil export imported again keeps every
 * setting GitLab's export carries (in `project.json` and in the has-one relation files
 * `project_feature`, `ci_cd_settings`, `auto_devops`), and a hand-built GitLab archive sets them,
 * `override_params` winning.
 */

/** Settings GitLab's export leaves out: excluded project attributes, and `mr_default_target_self`, which no export file carries. */
const NOT_EXPORTED = ['emails_disabled', 'emails_enabled', 'enforce_auth_checks_on_uploads', 'lfs_enabled', 'mr_default_target_self', 'packages_enabled', 'warn_about_potentially_unwanted_characters'];

/** Every exported setting off its default, with values the projects API accepts. */
function offDefaults(): Record<string, unknown> {
  const out: Record<string, unknown> = {
    merge_method: 'ff', squash_option: 'never', auto_devops_deploy_strategy: 'timed_incremental', auto_cancel_pending_pipelines: 'disabled', build_git_strategy: 'clone',
    build_timeout: 7200, ci_default_git_depth: 7, ci_config_path: 'ci/main.yml', build_coverage_regex: '\\d+%', suggestion_commit_message: 'Apply %{suggestions_count} suggestions',
    merge_commit_template: 'Merge %{source_branch}', squash_commit_template: '%{title}', issue_branch_template: '%{id}-%{title}',
  };
  for (const [k, def] of Object.entries(PROJECT_SETTING_DEFAULTS)) {
    if (k in out || NOT_EXPORTED.includes(k)) continue;
    if (k.endsWith('_access_level')) out[k] = def === 'private' ? 'disabled' : 'private';
    else if (typeof def === 'boolean') out[k] = !def;
  }
  return out;
}

describe('project settings through export and import (gateway)', () => {
  let fleet: Fleet;
  let user: { id: number; token: string };

  beforeAll(async () => {
    fleet = await startFleet({
      services: ['identity', 'project-transfer'],
      env: { EXPORT_PARTS: 'identity', IMPORT_PARTS: 'identity', PROJECT_EXPORT_LIMIT: '0', PROJECT_DOWNLOAD_EXPORT_LIMIT: '0', PROJECT_IMPORT_LIMIT: '0' },
    });
    user = await userWithToken(fleet, `settings-rt-${randomBytes(3).toString('hex')}`);
  }, 180_000);
  afterAll(async () => fleet?.stop());

  const until = async <T>(fn: () => Promise<T | false>): Promise<T> => {
    for (const end = Date.now() + 30_000; ;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** `POST /projects/import` of `archive` as `path`, with `fields` (e.g. `override_params[...]`); the finished import's status record. */
  const importArchive = async (archive: Buffer, path: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('path', path);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([archive]), `${path}.tar.gz`);
    const res = await fetch(`${fleet.url}/api/v4/projects/import`, { method: 'POST', headers: { 'PRIVATE-TOKEN': user.token }, body: form });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    return until(async () => {
      const status = await call(fleet, user.token, 'GET', `/projects/${id}/import`);
      return ['finished', 'failed'].includes(status.import_status) && status;
    });
  };

  it('an Anvil export imported as a new project answers GET /projects/:id with the same settings', async () => {
    const settings = offDefaults();
    const source = await call(fleet, user.token, 'POST', '/projects', { path: `src-${randomBytes(3).toString('hex')}`, description: 'round trip', visibility: 'internal', ...settings });
    await call(fleet, user.token, 'POST', `/projects/${source.id}/export`, {});
    await until(async () => (await call(fleet, user.token, 'GET', `/projects/${source.id}/export`)).export_status === 'finished');
    const res = await fetch(`${fleet.url}/api/v4/projects/${source.id}/export/download`, { headers: { 'PRIVATE-TOKEN': user.token } });
    expect(res.status).toBe(200);
    const archive = Buffer.from(await res.arrayBuffer());

    const entries = await readArchive(archive);
    const body = (name: string) => entries.find((e) => e.name === name)?.body;
    for (const name of ['project_feature', 'ci_cd_settings', 'auto_devops']) expect(body(`./tree/project/${name}.ndjson`)?.endsWith('}')).toBe(true);
    expect(JSON.parse(body('./tree/project/ci_cd_settings.ndjson') as string)).toEqual({ default_git_depth: 7, forward_deployment_enabled: false, job_token_scope_enabled: true });
    expect(JSON.parse(body('./tree/project/auto_devops.ndjson') as string)).toMatchObject({ project_id: source.id, enabled: true, deploy_strategy: 'timed_incremental' });

    const status = await importArchive(archive, `copy-${randomBytes(3).toString('hex')}`);
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] });
    const [before, after] = [await call(fleet, user.token, 'GET', `/projects/${source.id}`), await call(fleet, user.token, 'GET', `/projects/${status.id}`)];
    const compared = [...Object.keys(PROJECT_SETTING_DEFAULTS).filter((k) => !NOT_EXPORTED.includes(k) && k in before), 'description', 'visibility', 'issues_enabled', 'jobs_enabled', 'wiki_enabled'];
    const pick = (p: Record<string, unknown>) => Object.fromEntries(compared.map((k) => [k, p[k]]));
    expect(Object.keys(settings).filter((k) => !(k in before))).toEqual([]);
    expect(pick(before)).toMatchObject({ ...settings, description: 'round trip', visibility: 'internal' });
    expect(pick(after)).toEqual(pick(before));
  }, 120_000);

  /** A GitLab archive with the has-one relations written as GitLab writes them (one object, no newline), `container_expiration_policy` and `security_setting` among them. */
  const gitlabArchive = (autoDevops: Record<string, unknown>, ciCd: Record<string, unknown>) => {
    const entries: Entry[] = validEntries();
    const has = (name: string, line: Record<string, unknown>) => entries.push({ name: `./tree/project/${name}.ndjson`, body: JSON.stringify(line) });
    has('auto_devops', { id: 1, created_at: '2017-10-19T15:36:23.466Z', updated_at: '2017-10-19T15:36:23.466Z', ...autoDevops });
    has('ci_cd_settings', { group_runners_enabled: false, runner_token_expiration_interval: null, ...ciCd });
    has('container_expiration_policy', { created_at: '2019-12-13 13:45:04 UTC', updated_at: '2019-12-13 13:45:04 UTC', next_run_at: null, project_id: 5, name_regex: null, cadence: '3month', older_than: null, keep_n: 100, enabled: false });
    has('security_setting', { project_id: 5, created_at: '2019-12-13 13:45:04 UTC', updated_at: '2019-12-13 13:45:04 UTC' });
    has('project_feature', { project_id: 5, builds_access_level: 10, issues_access_level: 0 });
    return makeArchive(entries);
  };

  it('a hand-built GitLab archive sets the settings its has-one relation files carry', async () => {
    const status = await importArchive(await gitlabArchive({ enabled: true, deploy_strategy: 'manual' }, { default_git_depth: 3 }), `gl-${randomBytes(3).toString('hex')}`);
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] });
    expect(await call(fleet, user.token, 'GET', `/projects/${status.id}`)).toMatchObject({
      auto_devops_enabled: true, auto_devops_deploy_strategy: 'manual', ci_default_git_depth: 3, builds_access_level: 'private', issues_access_level: 'disabled',
      ci_forward_deployment_enabled: true, ci_job_token_scope_enabled: false,
    });

    // GitLab's `enabled: null` (the instance default) leaves Auto DevOps as a new project has it.
    const unset = await importArchive(await gitlabArchive({ enabled: null, deploy_strategy: 'timed_incremental' }, { default_git_depth: null }), `gl-${randomBytes(3).toString('hex')}`);
    expect(unset).toMatchObject({ import_status: 'finished', failed_relations: [] });
    expect(await call(fleet, user.token, 'GET', `/projects/${unset.id}`)).toMatchObject({ auto_devops_enabled: false, auto_devops_deploy_strategy: 'timed_incremental', ci_default_git_depth: null });
  }, 120_000);

  it('override_params win over the has-one relation files', async () => {
    const archive = await gitlabArchive({ enabled: true, deploy_strategy: 'manual' }, { default_git_depth: 3 });
    const status = await importArchive(archive, `ov-${randomBytes(3).toString('hex')}`, {
      'override_params[auto_devops_enabled]': 'false', 'override_params[auto_devops_deploy_strategy]': 'continuous', 'override_params[ci_default_git_depth]': '12',
    });
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] });
    expect(await call(fleet, user.token, 'GET', `/projects/${status.id}`)).toMatchObject({ auto_devops_enabled: false, auto_devops_deploy_strategy: 'continuous', ci_default_git_depth: 12 });
  }, 120_000);
});
