import { pickWith, seededRandom } from '@anvil/testing';
import { compileCiConfig, lintCiConfig } from '../../src/ci-config';
import { compileErrors, context } from './helpers';

const KEYS = ['script', 'stage', 'when', 'rules', 'needs', 'extends', 'only', 'variables', 'image', 'services', 'tags', 'retry', 'timeout',
  'artifacts', 'allow_failure', 'parallel', 'inherit', 'trigger', 'start_in', 'default', 'include', 'workflow', 'stages', '.hidden', 'job',
  '__proto__', 'toString'];
const LEAVES = ['a', '', '~', 'true', '[]', '{}', '[a, b]', '{a: 1}', '$X == "y"', 'delayed', 'never', '!reference [.hidden, script]',
  '!reference [a]', '0', '-1', '1 day', '"/(a+)+$/"', '.hidden', 'x.yml', '{if: $A, when: never}', '{matrix: [{A: [1, 2]}]}',
  '{job: job, optional: true}', '{exit_codes: [1]}', '{paths: [a], reports: {junit: x}}'];

/** A random configuration of known keys and tricky values, nested up to three levels. */
function randomConfig(random: () => number): string {
  const value = (depth: number, indent: string): string => {
    if (depth > 2 || random() < 0.4) return ` ${pickWith(random, LEAVES)}`;
    return Array.from({ length: 1 + Math.floor(random() * 3) }, () => `\n${indent}  ${pickWith(random, KEYS)}:${value(depth + 1, `${indent}  `)}`).join('');
  };
  return Array.from({ length: 1 + Math.floor(random() * 5) }, () => `${pickWith(random, KEYS)}:${value(0, '')}\n`).join('');
}

describe('compileCiConfig: hostile configurations', () => {
  it('refuses more than 1 MB', async () => {
    expect(await compileErrors(`unit:\n  script: "${'x'.repeat(1024 * 1024)}"\n`)).toEqual(['The parsed YAML is too big']);
  });

  it('refuses nesting deeper than 100', async () => {
    expect(await compileErrors(`${'['.repeat(120)}${']'.repeat(120)}`)).toEqual(['The parsed YAML is too big']);
  });

  it('refuses an alias bomb quickly', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const started = Date.now();
    const result = await compileCiConfig(lines.join('\n'), context());
    expect(result.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a regex with catastrophic backtracking in rules without hanging', async () => {
    const started = Date.now();
    const errors = await compileErrors(`unit:\n  script: a\n  rules:\n    - if: $CI_COMMIT_BRANCH =~ /^(a+)+$/\n`, context({ variables: { CI_COMMIT_BRANCH: `${'a'.repeat(50)}!` } }));
    expect(errors).toEqual(['Failed to parse rule for unit: invalid regular expression: /^(a+)+$/']);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers every random configuration with a result, never an exception', async () => {
    const random = seededRandom(26);
    for (let i = 0; i < 300; i++) {
      const yaml = randomConfig(random);
      const ctx = context({ variables: { X: 'y', A: 'x' } }, { 'x.yml': yaml });
      await expect(compileCiConfig(yaml, ctx)).resolves.toHaveProperty('ok');
      await expect(lintCiConfig(yaml, ctx, i % 2 === 0)).resolves.toHaveProperty('valid');
    }
  });

  it('does not let keys reach Object.prototype', async () => {
    const result = await compileCiConfig('__proto__:\n  script: a\nconstructor:\n  script: b\n', context());
    expect(result.ok && result.jobs.map((j) => j.name).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).script).toBeUndefined();
  });
});
