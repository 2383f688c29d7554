import { actor, projectScope, startService, TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { commitFiles } from './support';

const PROJECT = 41;
const developer = actor('dev');
const reporter = actor('rep');
const scope = (level: number, opts = {}) => projectScope(PROJECT, { path_with_namespace: 'group/app', access_level: level, ...opts });
const path = `/api/v4/projects/${PROJECT}/ci/lint`;

describe('POST /projects/:id/ci/lint', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(pipelinesService);
    await commitFiles(svc.deps.db, PROJECT, { 'ci/build.yml': 'build:\n  stage: build\n  script: make\n' });
  });
  afterAll(() => svc?.stop());

  const post = (body: Record<string, unknown>, as = developer, level = 30) => svc.as({ user: as, project: scope(level) }).post(path).send(body);

  describe('as a developer', () => {
    it('answers 200 with a valid result, the merged YAML and no jobs unless asked', async () => {
      const res = await post({ content: 'unit:\n  script: echo 1\n' }).expect(200);
      expect(res.body).toEqual({ valid: true, errors: [], warnings: [], merged_yaml: '---\nunit:\n  script: echo 1\n', includes: [] });
    });

    it('lists the jobs with include_jobs', async () => {
      const res = await post({ content: 'unit:\n  script: echo 1\n  tags: [docker]\n', include_jobs: true }).expect(200);
      expect(res.body.jobs).toEqual([{
        name: 'unit', stage: 'test', before_script: [], script: ['echo 1'], after_script: [], tag_list: ['docker'],
        only: { refs: ['branches', 'tags'] }, except: null, environment: null, when: 'on_success', allow_failure: false, needs: null,
      }]);
    });

    it('reports GitLab errors with valid false', async () => {
      const res = await post({ content: 'unit:\n  script: ""\n' }).expect(200);
      expect(res.body).toMatchObject({ valid: false, errors: ["jobs:unit script can't be blank"], warnings: [] });
      expect(res.body.merged_yaml).toBe("---\nunit:\n  script: ''\n");
    });

    it('reports a YAML syntax error with null merged_yaml and includes', async () => {
      const res = await post({ content: 'a: b: c' }).expect(200);
      expect(res.body).toMatchObject({ valid: false, merged_yaml: null, includes: null });
      expect(res.body.errors[0]).toMatch(/^\(<unknown>\): /);
    });

    it('reads include: local from the default branch and lists the included files', async () => {
      const res = await post({ content: 'include: /ci/build.yml\nunit:\n  script: rspec\n', include_jobs: true }).expect(200);
      expect(res.body.valid).toBe(true);
      expect(res.body.jobs.map((j: { name: string }) => j.name)).toEqual(['build', 'unit']);
      expect(res.body.includes).toEqual([{
        type: 'local', location: 'ci/build.yml', blob: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/group\/app\/-\/blob\/[0-9a-f]{40}\/ci\/build\.yml$/),
        raw: expect.stringMatching(/\/group\/app\/-\/raw\/[0-9a-f]{40}\/ci\/build\.yml$/), extra: {}, context_project: 'group/app', context_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      }]);
    });

    it("reports a missing local include with GitLab's message", async () => {
      const res = await post({ content: 'include: missing.yml\nunit:\n  script: rspec\n' }).expect(200);
      expect(res.body).toMatchObject({ valid: false, errors: ['Local file `missing.yml` does not exist!'] });
    });

    it('simulates pipeline creation with dry_run, applying rules for the ref', async () => {
      const content = 'a:\n  script: x\n  rules:\n    - if: $CI_COMMIT_BRANCH == "main"\nb:\n  script: y\n  rules:\n    - if: $CI_COMMIT_BRANCH == "other"\n';
      const res = await post({ content, dry_run: true, include_jobs: true }).expect(200);
      expect(res.body.valid).toBe(true);
      expect(res.body.jobs).toEqual([{ name: 'a', stage: 'test', before_script: [], script: ['x'], after_script: [], tag_list: [], environment: null, when: 'on_success', allow_failure: false }]);
    });

    it('reports an unknown dry_run ref as pipeline creation does', async () => {
      const res = await post({ content: 'a:\n  script: x\n', dry_run: true, ref: 'nope' }).expect(200);
      expect(res.body).toMatchObject({ valid: false, errors: ['Reference not found'] });
    });

    it('reports workflow rules that filter the pipeline out on dry_run', async () => {
      const content = 'workflow:\n  rules:\n    - if: $CI_COMMIT_BRANCH == "release"\na:\n  script: x\n';
      const res = await post({ content, dry_run: 'true' }).expect(200);
      expect(res.body).toMatchObject({ valid: false, errors: ['Pipeline filtered out by workflow rules.'] });
    });
  });

  describe('parameters', () => {
    it('requires content', async () => {
      await post({}).expect(400, { error: 'content is missing' });
    });

    it('lints blank content as GitLab does (not a parameter error)', async () => {
      const res = await post({ content: '' }).expect(200);
      expect(res.body).toEqual({ valid: false, errors: ['Please provide content of .gitlab-ci.yml'], warnings: [], merged_yaml: null, includes: null });
    });

    it('rejects a non-boolean dry_run', async () => {
      await post({ content: 'a:\n  script: x\n', dry_run: 'maybe' }).expect(400, { error: 'dry_run is invalid' });
    });
  });

  describe('authorization', () => {
    it('is 403 for a reporter (create_pipeline)', async () => {
      await post({ content: 'a:\n  script: x\n' }, reporter, 20).expect(403, { message: '403 Forbidden' });
    });

    it('is 403 for an anonymous caller on a public project', async () => {
      await svc.as({ user: null, project: scope(0, { visibility: 'public' }) }).post(path).send({ content: 'a:\n  script: x\n' }).expect(403, { message: '403 Forbidden' });
    });

    it('is allowed to an administrator without membership', async () => {
      await svc.as({ user: actor('root', { admin: true }), project: scope(0) }).post(path).send({ content: 'a:\n  script: x\n' }).expect(200);
    });
  });
});
