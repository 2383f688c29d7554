import { compileCiConfig } from '../../src/ci-config';
import { compileOk, context, job } from './helpers';

describe('compileCiConfig: stages and jobs', () => {
  it('uses the default stages and puts jobs in test', async () => {
    const result = await compileOk('unit:\n  script: rspec\n');
    expect(result.stages).toEqual(['.pre', 'build', 'test', 'deploy', '.post']);
    expect(result.jobs.map((j) => [j.name, j.stage, j.stageIdx])).toEqual([['unit', 'test', 2]]);
  });

  it('wraps user stages with .pre and .post and orders jobs by stage then file order', async () => {
    const result = await compileOk(`
stages: [build, [check, ship], .post]
c: {stage: ship, script: c}
b: {stage: check, script: b}
a: {stage: build, script: a}
d: {stage: check, script: d}
`);
    expect(result.stages).toEqual(['.pre', 'build', 'check', 'ship', '.post']);
    expect(result.jobs.map((j) => [j.name, j.stageIdx])).toEqual([['a', 1], ['b', 2], ['d', 2], ['c', 3]]);
  });

  it('flattens nested script lists and reads before/after scripts', async () => {
    const result = await compileOk(`
before_script: [setup]
unit:
  script: [one, [two, [three]]]
  after_script: cleanup
`);
    const unit = job(result, 'unit');
    expect(unit.script).toEqual(['one', 'two', 'three']);
    expect(unit.beforeScript).toEqual(['setup']);
    expect(unit.afterScript).toEqual(['cleanup']);
  });

  it('ignores hidden jobs', async () => {
    const result = await compileOk('.tpl:\n  script: x\nunit:\n  script: y\n');
    expect(result.jobs.map((j) => j.name)).toEqual(['unit']);
  });

  it.each([
    ['on_success', 'on_success', false, null],
    ['on_failure', 'on_failure', false, null],
    ['always', 'always', false, null],
    ['manual', 'manual', true, null],
    ['delayed\n  start_in: 30 minutes', 'delayed', false, 1800],
  ])('when: %s', async (when, expected, allowFailure, startIn) => {
    const result = await compileOk(`unit:\n  script: x\n  when: ${when}\n`);
    const unit = job(result, 'unit');
    expect([unit.when, unit.allowFailure, unit.startInSeconds]).toEqual([expected, allowFailure, startIn]);
  });

  it('merges job variables over global ones, as strings', async () => {
    const result = await compileOk(`
variables: {A: global, B: 2, C: {value: described, description: text}}
unit:
  script: x
  variables: {B: job, D: 4}
`);
    expect(result.variables).toEqual({ A: 'global', B: '2', C: 'described' });
    expect(job(result, 'unit').variables).toEqual({ A: 'global', B: 'job', C: 'described', D: '4' });
  });

  it('returns the merged YAML as GitLab dumps it', async () => {
    const result = await compileOk('unit:\n  script: echo 1\n');
    expect(result.mergedYaml).toBe('---\nunit:\n  script: echo 1\n');
  });

  it('never throws on hostile input', async () => {
    const results = await Promise.all(['a: *b', '{', '[]', '"x"', 'a: !!python/object:os.system ls', 'x: '.repeat(5)].map((y) => compileCiConfig(y, context())));
    expect(results.every((r) => !r.ok)).toBe(true);
  });
});
