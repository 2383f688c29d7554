import { compileCiConfig } from '../../src/ci-config';
import { compileErrors, compileOk, context, job } from './helpers';

describe('compileCiConfig: job keywords', () => {
  it('reads image and services in both forms', async () => {
    const unit = job(await compileOk(`
unit:
  script: a
  image: {name: ruby:3, entrypoint: [""]}
  services: [postgres:16, {name: redis, alias: cache}]
`), 'unit');
    expect(unit.image).toEqual({ name: 'ruby:3', entrypoint: [''] });
    expect(unit.services).toEqual([{ name: 'postgres:16' }, { name: 'redis', alias: 'cache' }]);
  });

  it('reads tags, retry, timeout and artifacts', async () => {
    const unit = job(await compileOk(`
unit:
  script: a
  tags: [docker, linux]
  retry: {max: 2, when: [script_failure]}
  timeout: 1h 30m
  artifacts:
    paths: [dist/]
    expire_in: 1 week
    when: always
    reports:
      junit: report.xml
`), 'unit');
    expect(unit.tags).toEqual(['docker', 'linux']);
    expect(unit.retry).toEqual({ max: 2, when: ['script_failure'] });
    expect(unit.timeoutSeconds).toBe(5400);
    expect(unit.artifacts).toEqual({ paths: ['dist/'], expireIn: '1 week', when: 'always', reports: { junit: ['report.xml'] } });
  });

  it('defaults retry to none and artifacts when to on_success', async () => {
    const unit = job(await compileOk('unit:\n  script: a\n  retry: 1\n  artifacts:\n    paths: [x]\n'), 'unit');
    expect(unit.retry).toEqual({ max: 1, when: ['always'] });
    expect(unit.artifacts).toEqual({ paths: ['x'], expireIn: null, when: 'on_success', reports: { junit: [] } });
  });

  it.each([
    ['allow_failure: true', true, []],
    ['allow_failure: false\n  when: manual', false, []],
    ['allow_failure:\n    exit_codes: 137', false, [137]],
    ['allow_failure:\n    exit_codes: [1, 2]', false, [1, 2]],
  ])('allow_failure %s', async (yaml, allowFailure, codes) => {
    const unit = job(await compileOk(`unit:\n  script: a\n  ${yaml}\n`), 'unit');
    expect([unit.allowFailure, unit.allowFailureExitCodes]).toEqual([allowFailure, codes]);
  });

  it('reads needs in both forms, and needs: [] (no dependencies)', async () => {
    const result = await compileOk(`
build:
  stage: build
  script: a
lint:
  stage: build
  script: a
unit:
  script: a
  needs: [build, {job: lint, artifacts: false}]
solo:
  script: a
  needs: []
`);
    expect(job(result, 'unit').needs).toEqual([{ job: 'build', artifacts: true, optional: false }, { job: 'lint', artifacts: false, optional: false }]);
    expect(job(result, 'solo').needs).toEqual([]);
    expect(job(result, 'build').needs).toBeNull();
  });
});

describe('compileCiConfig: default and inherit', () => {
  it('gives jobs the default keys they do not set, whole', async () => {
    const result = await compileOk(`
default:
  image: ruby
  before_script: [bundle]
  tags: [shared]
  retry: 1
a:
  script: a
b:
  script: b
  image: node
  tags: []
`);
    expect([job(result, 'a').image, job(result, 'a').beforeScript, job(result, 'a').tags, job(result, 'a').retry.max]).toEqual([{ name: 'ruby' }, ['bundle'], ['shared'], 1]);
    expect([job(result, 'b').image, job(result, 'b').beforeScript, job(result, 'b').tags]).toEqual([{ name: 'node' }, ['bundle'], []]);
  });

  it('treats top-level before_script, image and services as defaults', async () => {
    const unit = job(await compileOk('image: alpine\nservices: [redis]\nafter_script: [bye]\nunit:\n  script: a\n'), 'unit');
    expect([unit.image, unit.services, unit.afterScript]).toEqual([{ name: 'alpine' }, [{ name: 'redis' }], ['bye']]);
  });

  it('limits what a job inherits with inherit: default and inherit: variables', async () => {
    const result = await compileOk(`
variables: {A: "1", B: "2"}
default:
  image: ruby
  before_script: [setup]
none:
  script: a
  inherit: {default: false, variables: false}
some:
  script: a
  inherit: {default: [image], variables: [B]}
`);
    expect([job(result, 'none').image, job(result, 'none').beforeScript, job(result, 'none').variables]).toEqual([null, [], {}]);
    expect([job(result, 'some').image, job(result, 'some').beforeScript, job(result, 'some').variables]).toEqual([{ name: 'ruby' }, [], { B: '2' }]);
  });
});

describe('compileCiConfig: extends and !reference', () => {
  it('deep-merges multi-level bases left to right, the job on top (hashes merge, arrays replace)', async () => {
    const result = await compileOk(`
.base:
  image: ruby
  variables: {A: base, B: base}
  script: [base]
  tags: [one]
.middle:
  extends: .base
  variables: {B: middle, C: middle}
  tags: [two]
.other:
  variables: {D: other}
unit:
  extends: [.middle, .other]
  variables: {C: job}
`);
    const unit = job(result, 'unit');
    expect(unit.image).toEqual({ name: 'ruby' });
    expect(unit.variables).toEqual({ A: 'base', B: 'middle', C: 'job', D: 'other' });
    expect(unit.script).toEqual(['base']);
    expect(unit.tags).toEqual(['two']);
  });

  it('resolves !reference after extends, flattening nested script lists', async () => {
    const result = await compileOk(`
.setup:
  script: [one, two]
.vars:
  variables: {X: "1"}
.ext:
  extends: .setup
  after_script: [bye]
unit:
  script:
    - !reference [.setup, script]
    - three
  after_script: !reference [.ext, after_script]
  variables:
    Y: !reference [.vars, variables, X]
`);
    const unit = job(result, 'unit');
    expect(unit.script).toEqual(['one', 'two', 'three']);
    expect(unit.afterScript).toEqual(['bye']);
    expect(unit.variables).toEqual({ Y: '1' });
  });
});

describe('compileCiConfig: include local', () => {
  const files = {
    'ci/base.yml': 'include: ci/nested.yml\nvariables: {A: base, B: base}\nbuild:\n  stage: build\n  script: make\n',
    'ci/nested.yml': '.tpl:\n  script: [nested]\n',
    'ci/other.yaml': 'variables: {B: other}\n',
  };

  it('merges included files in order, the including file on top, nested includes first', async () => {
    const result = await compileOk(`
include:
  - local: /ci/base.yml
  - ci/other.yaml
variables: {A: main}
unit:
  extends: .tpl
`, context({}, files));
    expect(result.variables).toEqual({ A: 'main', B: 'other' });
    expect(result.jobs.map((j) => j.name)).toEqual(['build', 'unit']);
    expect(job(result, 'unit').script).toEqual(['nested']);
  });

  it('reports a missing nested include', async () => {
    expect(await compileErrors('include: ci/base.yml\nunit:\n  script: a\n', context({}, { 'ci/base.yml': 'include: ci/gone.yml\n' }))).toEqual(['Local file `ci/gone.yml` does not exist!']);
  });

  it('stops an include cycle', async () => {
    const cyc = { 'a.yml': 'include: b.yml\nx:\n  script: a\n', 'b.yml': 'include: a.yml\ny:\n  script: b\n' };
    const result = await compileOk('include: a.yml\n', context({}, cyc));
    expect(result.jobs.map((j) => j.name).sort()).toEqual(['x', 'y']);
  });
});

describe('compileCiConfig: rules, workflow and only/except for the ref', () => {
  const rulesYaml = `
variables: {DEPLOY: "yes"}
unit:
  script: a
  rules:
    - if: $CI_COMMIT_BRANCH == "release" || $FORCE
      when: never
    - if: '$CI_COMMIT_BRANCH =~ /^ma/ && $DEPLOY'
      when: manual
      allow_failure: true
      variables: {FROM: rule}
    - when: on_success
`;

  it('takes the first matching rule: when, allow_failure, variables', async () => {
    const unit = job(await compileOk(rulesYaml), 'unit');
    expect([unit.when, unit.allowFailure, unit.variables]).toEqual(['manual', true, { DEPLOY: 'yes', FROM: 'rule' }]);
  });

  it('omits a job whose matching rule is never, and warns about a bare last when', async () => {
    const result = await compileCiConfig(rulesYaml + 'other:\n  script: b\n', context({ ref: 'release', variables: { CI_COMMIT_BRANCH: 'release' } }));
    expect(result.ok && result.jobs.map((j) => j.name)).toEqual(['other']);
    expect(result.warnings).toEqual(['jobs:unit may allow multiple pipelines to run for a single action due to `rules:when` clause with no `workflow:rules` - read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings']);
  });

  it('does not flip allow_failure for rules: when: manual', async () => {
    const unit = job(await compileOk('unit:\n  script: a\n  rules:\n    - when: manual\n'), 'unit');
    expect([unit.when, unit.allowFailure]).toEqual(['manual', false]);
  });

  it('gives the rule start_in to a delayed job', async () => {
    const unit = job(await compileOk('unit:\n  script: a\n  rules:\n    - when: delayed\n      start_in: 2 hours\n'), 'unit');
    expect([unit.when, unit.startInSeconds]).toEqual(['delayed', 7200]);
  });

  it('answers the Populate error when rules leave no job', async () => {
    expect(await compileErrors('unit:\n  script: a\n  rules:\n    - if: $NOPE\n')).toEqual([
      'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
    ]);
  });

  it('answers the Populate error when only .pre/.post jobs remain', async () => {
    expect(await compileErrors('pre:\n  stage: .pre\n  script: a\n')).toEqual([
      'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
    ]);
  });

  it('filters the pipeline out with workflow rules and marks it filtered', async () => {
    const result = await compileCiConfig('workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\n    - when: never\nunit:\n  script: a\n', context());
    expect(result).toEqual({ ok: false, errors: ['Pipeline filtered out by workflow rules.'], warnings: [], filtered: true });
  });

  it('lets workflow rule variables override the root variables', async () => {
    const result = await compileOk('variables: {A: root}\nworkflow:\n  rules:\n    - if: $CI_COMMIT_BRANCH == "main"\n      variables: {A: workflow}\nunit:\n  script: a\n');
    expect([result.variables, job(result, 'unit').variables]).toEqual([{ A: 'workflow' }, { A: 'workflow' }]);
  });

  it('lets pipeline variables win over YAML variables in rules', async () => {
    const yaml = 'variables: {MODE: yaml}\nunit:\n  script: a\n  rules:\n    - if: $MODE == "api"\n';
    expect(await compileErrors(yaml)).toHaveLength(1);
    await compileOk(yaml, context({ variables: { MODE: 'api' } }));
  });

  it('reports a missing required need of an omitted job, and drops an optional one', async () => {
    const yaml = (optional: boolean) => `
build:
  script: a
  rules:
    - if: $NOPE
unit:
  script: a
  needs: [{job: build, optional: ${optional}}]
`;
    expect(await compileErrors(yaml(false))).toEqual([
      "'unit' job needs 'build' job, but 'build' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.",
    ]);
    expect(job(await compileOk(yaml(true)), 'unit').needs).toEqual([]);
  });

  it.each([
    ['main', false, 'push', ['plain', 'branch', 'named', 'regex', 'pushes', 'not-tags', 'here']],
    ['v1.0', true, 'push', ['plain', 'tag', 'pushes']],
    ['feature', false, 'web', ['plain', 'branch', 'web', 'not-tags']],
    ['main', false, 'schedule', ['plain', 'branch', 'named', 'regex', 'schedules', 'not-tags', 'here', 'vars']],
  ])('only/except on %s (tag %s, source %s)', async (ref, tag, source, expected) => {
    const result = await compileOk(`
plain: {script: a}
branch: {script: a, only: [branches]}
tag: {script: a, only: [tags]}
named: {script: a, only: [main]}
regex: {script: a, only: ["/^ma.n$/"]}
pushes: {script: a, only: [pushes]}
web: {script: a, only: [web]}
schedules: {script: a, only: [schedules]}
not-tags: {script: a, except: [tags]}
elsewhere: {script: a, only: ["main@other/project"]}
here: {script: a, only: ["main@group/app"]}
vars: {script: a, only: {variables: ["$CI_PIPELINE_SOURCE == 'schedule'"]}}
`, context({ ref, tag, source, projectPath: 'group/app', variables: { CI_COMMIT_REF_NAME: ref, CI_PIPELINE_SOURCE: source } }));
    expect(result.jobs.map((j) => j.name)).toEqual(expected);
  });
});
