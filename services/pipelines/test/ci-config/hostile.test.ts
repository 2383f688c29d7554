import { compileCiConfig } from '../../src/ci-config';
import { compileErrors, context } from './helpers';

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

  it('does not let keys reach Object.prototype', async () => {
    const result = await compileCiConfig('__proto__:\n  script: a\nconstructor:\n  script: b\n', context());
    expect(result.ok && result.jobs.map((j) => j.name).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).script).toBeUndefined();
  });
});
