import { runBenchSmoke } from './smoke';

describe('bench/alerting in smoke mode', () => {
  it('posts new and repeated alerts through the gateway and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/alerting/run.ts');
    expect(stdout).toContain('| scenario | achieved alerts/s | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    for (const title of ['new fingerprint per request', 'repeats of 10 fingerprints']) {
      expect(stdout).toMatch(new RegExp(`^\\| ${title} \\| [1-9]\\d* \\| \\d+\\.\\d \\| \\d+\\.\\d \\| \\d+\\.\\d \\| 100\\.00% \\| \\d+\\.\\d\\d \\|$`, 'm'));
    }
  }, 90_000);
});
