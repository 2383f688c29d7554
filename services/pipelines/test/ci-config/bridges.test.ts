import { lintCiConfig } from '../../src/ci-config';
import { compileErrors, compileOk, context } from './helpers';

describe('compileCiConfig: trigger jobs', () => {
  const yaml = 'unit:\n  script: a\ndownstream:\n  stage: deploy\n  trigger: group/other\n';

  it('validates and lints a trigger job, and leaves it out of the pipeline it compiles', async () => {
    const lint = await lintCiConfig(yaml, context(), false);
    expect(lint.valid).toBe(true);
    expect(lint.jobs.map((j) => [j.name, j.stage])).toEqual([['unit', 'test'], ['downstream', 'deploy']]);
    expect((await compileOk(yaml)).jobs.map((j) => j.name)).toEqual(['unit']);
  });

  it('counts a trigger job as visible', async () => {
    expect((await lintCiConfig('child:\n  trigger:\n    include: child.yml\n', context(), false)).valid).toBe(true);
  });

  it.each([
    ['unknown keys', 'x:\n  trigger: a/b\n  image: ruby\n', ['jobs:x config contains unknown keys: image']],
    ['a trigger without project or include', 'x:\n  trigger:\n    branch: main\n', ['jobs:x:trigger config should contain either a project or an include']],
    ['an unknown when', 'x:\n  trigger: a/b\n  when: delayed\n', ['jobs:x when should be on_success, on_failure or always']],
    ['an unknown stage', 'x:\n  trigger: a/b\n  stage: nope\n', ['x job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post']],
  ])('reports %s', async (_name, config, errors) => {
    expect(await compileErrors(config)).toEqual(errors);
  });
});

describe('compileCiConfig: include rules and variables', () => {
  const files = { 'ci/main.yml': 'on-main:\n  script: a\n', 'ci/prod.yml': 'on-prod:\n  script: a\n', 'ci/never.yml': 'never:\n  script: a\n', 'marker.txt': 'x' };
  const yaml = `
include:
  - local: ci/main.yml
    rules:
      - if: $CI_COMMIT_BRANCH == "main"
  - local: ci/$TARGET.yml
  - local: ci/never.yml
    rules:
      - exists: [marker.txt]
        when: never
      - when: always
base:
  script: a
`;

  it('includes files whose rules match, with variables expanded in locations', async () => {
    const result = await compileOk(yaml, context({ variables: { CI_COMMIT_BRANCH: 'main', TARGET: 'prod' } }, files));
    expect(result.jobs.map((j) => j.name)).toEqual(['on-main', 'on-prod', 'base']);
  });

  it('leaves a file out when no rule matches, and reads exists from the commit', async () => {
    const withoutMarker = Object.fromEntries(Object.entries(files).filter(([path]) => path !== 'marker.txt'));
    const result = await compileOk(yaml, context({ ref: 'dev', variables: { CI_COMMIT_BRANCH: 'dev', TARGET: 'prod' } }, withoutMarker));
    expect(result.jobs.map((j) => j.name)).toEqual(['on-prod', 'never', 'base']);
  });

  it('reports an invalid include rule expression', async () => {
    expect(await compileErrors('include:\n  - local: a.yml\n    rules:\n      - if: $A ==\nx:\n  script: a\n')).toEqual(['include:rules:rule if invalid expression syntax']);
  });
});
