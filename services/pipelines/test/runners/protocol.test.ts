import { parseExpireIn } from '../../src/runners/artifact-store';
import { knownFailureReason } from '../../src/runners/failure-reasons';
import { ScanGate } from '../../src/runners/scan-gate';
import { newJobToken, newRunnerToken } from '../../src/runners/tokens';

describe('parseExpireIn', () => {
  it.each([
    ['30 days', 30 * 86400],
    ['1 week', 604800],
    ['1 week 2 days', 604800 + 2 * 86400],
    ['2 hrs', 7200],
    ['3600', 3600],
    ['1 hour and 30 mins', 5400],
    ['never', null],
    ['Never', null],
    ['soon', undefined],
    ['3 fortnights', undefined],
  ])('%s → %s', (text, seconds) => {
    expect(parseExpireIn(text)).toBe(seconds);
  });
});

describe('tokens', () => {
  it('shapes runner tokens by type and job tokens with glcbt-', () => {
    expect(newRunnerToken('instance_type')).toMatch(/^glrt-t1_[\w-]{27}$/);
    expect(newRunnerToken('group_type')).toMatch(/^glrt-t2_/);
    expect(newRunnerToken('project_type')).toMatch(/^glrt-t3_/);
    expect(newJobToken()).toMatch(/^glcbt-[\w-]{27}$/);
    expect(newJobToken()).not.toBe(newJobToken());
  });
});

describe('knownFailureReason', () => {
  it('keeps GitLab reasons and maps the rest to unknown_failure', () => {
    expect(knownFailureReason('script_failure')).toBe('script_failure');
    expect(knownFailureReason('job_execution_timeout')).toBe('job_execution_timeout');
    expect(knownFailureReason('gremlins')).toBe('unknown_failure');
    expect(knownFailureReason(undefined)).toBe('unknown_failure');
  });
});

describe('ScanGate', () => {
  it('runs at most `limit` at once, the rest in arrival order', async () => {
    const gate = new ScanGate(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3, 4].map((i) => gate.run(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 20));
      order.push(i);
      running--;
    })));
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees its place when a scan fails', async () => {
    const gate = new ScanGate(1);
    await expect(gate.run(async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
