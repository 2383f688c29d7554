import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { globRegExp, loadConfig, matchingFiles, stepScript } from '../src';
import { runStep } from '../src/shell';

describe('globRegExp', () => {
  it.each([
    ['report.xml', 'report.xml', true],
    ['report.xml', 'sub/report.xml', false],
    ['*.xml', 'a.xml', true],
    ['*.xml', 'sub/a.xml', false],
    ['**/*.xml', 'a.xml', true],
    ['**/*.xml', 'x/y/a.xml', true],
    ['./out/junit-?.xml', 'out/junit-1.xml', true],
    ['out/**', 'out/a/b', true],
    ['a+b.xml', 'aab.xml', false],
  ])('%s matches %s: %s', (pattern, file, expected) => {
    expect(globRegExp(pattern).test(file)).toBe(expected);
  });
});

describe('the shell executor', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'anvil-runner-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (lines: string[], timeoutMs = 10_000, signal = new AbortController().signal) => {
    const out: Buffer[] = [];
    const r = await runStep('bash', stepScript(lines), dir, { PATH: process.env.PATH, GREETING: 'hi there' }, (b) => out.push(b), timeoutMs, signal);
    return { r, out: Buffer.concat(out).toString() };
  };

  it('echoes each command, runs it with the job variables, and stops at the first failure with its exit code', async () => {
    const { r, out } = await run(['echo "$GREETING"', "echo 'quoted'", 'exit 3', 'echo never']);
    expect(r).toEqual({ exitCode: 3, stopped: null });
    expect(out).toContain('$ echo "$GREETING"');
    expect(out).toContain('hi there\n');
    expect(out).toContain("$ echo 'quoted'");
    expect(out).not.toContain('never\n');
  });

  it('stops a step past its timeout, and when aborted', async () => {
    expect((await run(['sleep 5'], 200)).r).toEqual({ exitCode: null, stopped: 'timeout' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect((await run(['sleep 5'], 10_000, ac.signal)).r).toEqual({ exitCode: null, stopped: 'aborted' });
  });

  it('finds report files by glob', async () => {
    mkdirSync(path.join(dir, 'reports/unit'), { recursive: true });
    writeFileSync(path.join(dir, 'reports/unit/a.xml'), '<a/>');
    writeFileSync(path.join(dir, 'reports/b.xml'), '<b/>');
    writeFileSync(path.join(dir, 'reports/c.txt'), 'c');
    const files = await matchingFiles(dir, ['reports/**/*.xml']);
    expect(files.map((f) => [f.path, f.data.toString()])).toEqual([['reports/b.xml', '<b/>'], ['reports/unit/a.xml', '<a/>']]);
  });
});

describe('loadConfig', () => {
  it('reads ANVIL_URL and RUNNER_TOKEN over a config file', () => {
    const file = path.join(tmpdir(), `anvil-runner-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ url: 'http://file:1/', token: 'glrt-file', shell: 'sh' }));
    try {
      expect(loadConfig(['--config', file], {})).toMatchObject({ url: 'http://file:1', token: 'glrt-file', shell: 'sh' });
      expect(loadConfig(['--config', file], { ANVIL_URL: 'http://127.0.0.1:8080', RUNNER_TOKEN: 'glrt-env' })).toMatchObject({ url: 'http://127.0.0.1:8080', token: 'glrt-env' });
    } finally {
      rmSync(file);
    }
  });

  it('names what is missing', () => {
    expect(() => loadConfig([], {})).toThrow('ANVIL_URL');
    expect(() => loadConfig([], { ANVIL_URL: 'http://x' })).toThrow('RUNNER_TOKEN');
  });
});
