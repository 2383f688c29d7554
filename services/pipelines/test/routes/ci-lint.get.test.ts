import { actor, projectScope, startService, TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { commitFiles } from './support';

const PROJECT = 42;
const EMPTY = 43;
const reporter = actor('rep');
const guest = actor('guest');
const developer = actor('dev');
const scope = (id: number, level: number, opts = {}) => projectScope(id, { path_with_namespace: 'group/app', access_level: level, ...opts });
const path = (id = PROJECT) => `/api/v4/projects/${id}/ci/lint`;

describe('GET /projects/:id/ci/lint', () => {
  let svc: TestService;
  let first: string;
  beforeAll(async () => {
    svc = await startService(pipelinesService);
    first = await commitFiles(svc.deps.db, PROJECT, { '.gitlab-ci.yml': 'include: ci/test.yml\nbuild:\n  stage: build\n  script: make\n' });
    await commitFiles(svc.deps.db, PROJECT, { 'ci/test.yml': 'unit:\n  script: rspec\n' });
    await commitFiles(svc.deps.db, PROJECT, { 'other.txt': 'x' }, 'feature', 'main');
  });
  afterAll(() => svc?.stop());

  const get = (query: string, as = reporter, level = 20, id = PROJECT) => svc.as({ user: as, project: scope(id, level) }).get(`${path(id)}${query}`);

  describe('as a reporter', () => {
    it("lints the default branch's .gitlab-ci.yml with its includes", async () => {
      const res = await get('?include_jobs=true').expect(200);
      expect(res.body).toMatchObject({ valid: true, errors: [], warnings: [] });
      expect(res.body.merged_yaml).toBe('---\nunit:\n  script: rspec\nbuild:\n  stage: build\n  script: make\n');
      expect(res.body.includes.map((i: { location: string }) => i.location)).toEqual(['ci/test.yml']);
      expect(res.body.jobs.map((j: { name: string; stage: string }) => [j.name, j.stage])).toEqual([['build', 'build'], ['unit', 'test']]);
    });

    it('reads the configuration at a commit given by sha', async () => {
      const res = await get(`?sha=${first}`).expect(200);
      expect(res.body.valid).toBe(false);
      expect(res.body.errors).toEqual(['Local file `ci/test.yml` does not exist!']);
      expect(res.body).not.toHaveProperty('jobs');
    });

    it('reads the configuration at a branch given by content_ref', async () => {
      await get('?content_ref=feature').expect(200).expect((r) => expect(r.body.valid).toBe(true));
    });

    it('is 404 Commit Not Found for an unknown sha', async () => {
      await get(`?sha=${'0'.repeat(40)}`).expect(404, { message: '404 Commit Not Found' });
      await get('?sha=nope').expect(404, { message: '404 Commit Not Found' });
    });

    it('refuses sha and ref together (deprecated pair)', async () => {
      await get('?sha=main&ref=main').expect(400, { error: 'sha, ref are mutually exclusive' });
      await get('?sha=main&content_ref=main').expect(400, { error: 'sha, content_ref are mutually exclusive' });
    });

    it("reports dry_run without create_pipeline as pipeline creation's first error", async () => {
      const res = await get('?dry_run=true').expect(200);
      expect(res.body).toMatchObject({ valid: false, errors: ['Insufficient permissions to create a new pipeline'] });
    });
  });

  describe('as a developer', () => {
    it('simulates the pipeline on dry_run_ref', async () => {
      const res = await get('?dry_run=true&dry_run_ref=feature&include_jobs=true', developer, 30).expect(200);
      expect(res.body.valid).toBe(true);
      expect(res.body.jobs.map((j: { name: string }) => j.name)).toEqual(['build', 'unit']);
    });

    it('answers Please provide content when the commit has no .gitlab-ci.yml', async () => {
      await commitFiles(svc.deps.db, 44, { 'README.md': 'hi' });
      const res = await get('', developer, 30, 44).expect(200);
      expect(res.body).toMatchObject({ valid: false, errors: ['Please provide content of .gitlab-ci.yml'] });
    });
  });

  describe('authorization and repository', () => {
    it('is 403 for a guest of a private project (read_code)', async () => {
      await get('', guest, 10).expect(403, { message: '403 Forbidden' });
    });

    it('lets anyone read a public project', async () => {
      await svc.as({ user: null, project: scope(PROJECT, 0, { visibility: 'public' }) }).get(path()).expect(200);
    });

    it('is 404 Repository Not Found for an empty repository', async () => {
      await get('', reporter, 20, EMPTY).expect(404, { message: '404 Repository Not Found' });
    });
  });
});
