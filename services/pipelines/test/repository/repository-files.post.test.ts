import { RepositoryEvents } from '@anvil/events';
import { repoWorld, RepoWorld } from './support';

describe('POST /projects/:id/repository/files/:file_path', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  describe('in an empty project', () => {
    it('creates the branch with a root commit, makes it the default branch and publishes both events', async () => {
      const project = w.project();
      const res = await w.on(project, 'owner').post(w.files(project, 'ci/build.yml')).send({ branch: 'trunk', content: 'build: {}\n', commit_message: 'Add build' });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toEqual({ file_path: 'ci/build.yml', branch: 'trunk' });
      const branch = await w.svc.deps.db('repository_branches').where({ project_id: project.id }).first();
      const commit = await w.svc.deps.db('repository_commits').where({ project_id: project.id, sha: branch.commit_sha }).first();
      expect(commit).toMatchObject({ parent_shas: [], message: 'Add build', author_name: 'Owner User', committer_name: 'Owner User', changed_paths: ['ci/build.yml'] });
      expect(commit.author_email).toBe(`${w.users.owner.id}-owner-user@users.noreply.127.0.0.1`);
      expect((await w.svc.deps.db('repositories').where({ project_id: project.id }).first()).default_branch).toBe('trunk');
      const events = await w.svc.deps.db('outbox').whereRaw("(data->>'project_id')::int = ?", [project.id]).orderBy('id');
      expect(events.map((e) => [e.type, e.data])).toEqual([
        [RepositoryEvents.branchPushed, { project_id: project.id, ref: 'trunk', before: '0'.repeat(40), after: branch.commit_sha, user_id: w.users.owner.id }],
        [RepositoryEvents.defaultBranchChanged, { project_id: project.id, default_branch: 'trunk', previous: null, actor_id: w.users.owner.id }],
      ]);
    });

    it('refuses a Developer: the default branch is protected before the first push (400)', async () => {
      const project = w.project();
      await w.on(project, 'developer').post(w.files(project, 'a.txt')).send({ branch: 'main', content: 'a', commit_message: 'm' })
        .expect(400, { message: 'You are not allowed to push into this branch' });
    });
  });

  describe('in a project with commits', () => {
    it('adds a commit on the branch whose parent is the previous head; base64 content is decoded; author can be given', async () => {
      const project = w.project();
      await w.seed(project, 'README.md', 'hello\n');
      const before = await w.svc.deps.db('repository_branches').where({ project_id: project.id, name: 'main' }).first();
      await w.on(project, 'maintainer').post(w.files(project, 'bin/run.sh'))
        .send({ branch: 'main', content: Buffer.from('#!/bin/sh\n').toString('base64'), encoding: 'base64', commit_message: 'Add script', author_name: 'Jane', author_email: 'jane@example.com', execute_filemode: true })
        .expect(201, { file_path: 'bin/run.sh', branch: 'main' });
      const after = await w.svc.deps.db('repository_branches').where({ project_id: project.id, name: 'main' }).first();
      const commit = await w.svc.deps.db('repository_commits').where({ project_id: project.id, sha: after.commit_sha }).first();
      expect(commit).toMatchObject({ parent_shas: [before.commit_sha], author_name: 'Jane', author_email: 'jane@example.com', committer_name: w.users.maintainer.name });
      const raw = await w.on(project, 'reporter').get(`${w.files(project, 'bin/run.sh')}/raw?ref=main`).expect(200);
      expect(raw.text).toBe('#!/bin/sh\n');
      expect(raw.headers['x-gitlab-execute-filemode']).toBe('true');
    });

    it('lets a Developer commit to a new branch started from the default branch', async () => {
      const project = w.project();
      await w.seed(project, 'README.md', 'x');
      await w.on(project, 'developer').post(w.files(project, 'feature.txt')).send({ branch: 'feature/a', start_branch: 'main', content: 'f', commit_message: 'm' }).expect(201);
      expect((await w.svc.deps.db('repository_branches').where({ project_id: project.id }).orderBy('name')).map((b) => b.name)).toEqual(['feature/a', 'main']);
    });

    it.each([
      ['an existing file', { path: 'README.md' }, 'A file with this name already exists'],
      ['a path below a file', { path: 'README.md/x' }, 'A file with this name already exists'],
      ['an existing directory', { path: 'dir' }, 'A directory with this name already exists'],
      ['a missing branch', { branch: 'nope' }, 'You can only create or edit files when you are on a branch'],
      ['an existing new branch', { branch: 'other', start_branch: 'main' }, "A branch called 'other' already exists. Switch to that branch in order to make changes"],
      ['an invalid new branch', { branch: 'bad..name', start_branch: 'main' }, "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid"],
      ['a path Git cannot hold', { path: 'a//b.txt' }, "invalid path: 'a//b.txt'"],
    ])('answers 400 for %s', async (_what, over, message) => {
      const project = w.project();
      await w.seed(project, 'README.md', 'x');
      await w.seed(project, 'dir/inner.txt', 'y');
      await w.on(project, 'owner').post(w.files(project, 'o.txt')).send({ branch: 'other', start_branch: 'main', content: 'o', commit_message: 'm' }).expect(201);
      const { path = 'new.txt', ...body } = over as { path?: string };
      await w.on(project, 'owner').post(w.files(project, path)).send({ branch: 'main', content: 'z', commit_message: 'm', ...body }).expect(400, { message });
    });
  });

  describe('parameters', () => {
    it.each([
      [{ content: 'x', commit_message: 'm' }, 'branch is missing'],
      [{ branch: 'main', commit_message: 'm' }, 'content is missing'],
      [{ branch: '', content: 'x', commit_message: 'm' }, 'branch is empty'],
      [{ branch: 'main', content: 'x', commit_message: 'm', encoding: 'hex' }, 'encoding does not have a valid value'],
    ])('answers 400 %j → %s', async (body, error) => {
      const project = w.project();
      await w.on(project, 'owner').post(w.files(project, 'a.txt')).send(body).expect(400, { error });
    });

    it.each(['../etc/passwd', '/etc/passwd.rb', 'a/../../b', '..'])('refuses the path %s', async (path) => {
      const project = w.project();
      await w.on(project, 'owner').post(w.files(project, path)).send({ branch: 'main', content: 'x', commit_message: 'm' })
        .expect(400, { error: 'file_path should be a valid file path' });
    });

    it('answers 413 for content above the size limit', async () => {
      const project = w.project();
      await w.on(project, 'owner').post(w.files(project, 'big.bin')).send({ branch: 'main', content: 'x'.repeat(1024 * 1024 + 1), commit_message: 'm' })
        .expect(413, { message: '413 Request Entity Too Large' });
    });
  });

  describe('authorization', () => {
    it.each(['reporter', 'guest', 'anonymous'] as const)('refuses a %s on a public project (403)', async (role) => {
      const project = w.project('public');
      await w.on(project, role).post(w.files(project, 'a.txt')).send({ branch: 'main', content: 'x', commit_message: 'm' }).expect(403, { message: '403 Forbidden' });
      expect(await w.svc.deps.db('repository_commits').where({ project_id: project.id })).toEqual([]);
    });
  });
});
