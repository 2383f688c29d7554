import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

/** Runs `code` in a fresh Node process (the lib loaded as `log`) and returns its stdout. */
function stdoutOf(code: string): string {
  const script = `const log = require('./libs/log/src');\n${code}`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'info' } });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

describe('bufferedStdout', () => {
  it('writes every pending line when the process exits at once', () => {
    const out = stdoutOf(`const l = log.createLogger('t', 'info', { destination: log.bufferedStdout() });
      for (let i = 0; i < 500; i++) l.info('request', { i });
      process.exit(0);`);
    const lines = out.trim().split('\n').map((s) => JSON.parse(s) as { i: number });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it('writes what is pending on flushSync, before anything else the process prints', () => {
    const out = stdoutOf(`const d = log.bufferedStdout();
      log.createLogger('t', 'info', { destination: d }).info('request');
      d.flushSync();
      require('node:fs').writeSync(1, 'after\\n');`);
    expect(out.split('\n')).toEqual([expect.stringContaining('"msg":"request"'), 'after', '']);
  });
});
