import { compileErrors, compileOk, job } from './helpers';

describe('compileCiConfig: parallel and workflow:name', () => {
  it('makes N instances of a parallel job, with CI_NODE_INDEX and CI_NODE_TOTAL', async () => {
    const result = await compileOk('unit:\n  script: a\n  parallel: 3\n');
    expect(result.jobs.map((j) => [j.name, j.variables.CI_NODE_INDEX, j.variables.CI_NODE_TOTAL])).toEqual([
      ['unit 1/3', '1', '3'], ['unit 2/3', '2', '3'], ['unit 3/3', '3', '3'],
    ]);
  });

  it('makes one job per matrix combination, with its variables, and expands needs on it', async () => {
    const result = await compileOk(`
build:
  stage: build
  script: a
  parallel:
    matrix:
      - OS: [linux, mac]
        ARCH: amd64
      - OS: windows
deploy:
  stage: deploy
  script: b
  needs: [build]
`);
    expect(result.jobs.map((j) => j.name)).toEqual(['build: [linux, amd64]', 'build: [mac, amd64]', 'build: [windows]', 'deploy']);
    expect(job(result, 'build: [mac, amd64]').variables).toEqual({ OS: 'mac', ARCH: 'amd64' });
    expect(job(result, 'deploy').needs?.map((n) => n.job)).toEqual(['build: [linux, amd64]', 'build: [mac, amd64]', 'build: [windows]']);
  });

  it.each([
    ['parallel: 0', ['jobs:unit:parallel config must be greater than or equal to 1']],
    ['parallel: 201', ['jobs:unit:parallel config must be less than or equal to 200']],
    ['parallel: many', ['jobs:unit:parallel should be an integer or a hash']],
    ['parallel: {matrix: x}', ['jobs:unit:parallel:matrix config should be an array of hashes']],
  ])('rejects %s', async (yaml, errors) => {
    expect(await compileErrors(`unit:\n  script: a\n  ${yaml}\n`)).toEqual(errors);
  });

  it('names the pipeline from workflow:name with variables expanded', async () => {
    const result = await compileOk('variables: {KIND: nightly}\nworkflow:\n  name: "$KIND build of ${CI_COMMIT_BRANCH}$UNSET"\nunit:\n  script: a\n');
    expect(result.name).toBe('nightly build of main');
    expect((await compileOk('unit:\n  script: a\n')).name).toBeNull();
  });
});
