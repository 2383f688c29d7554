import { runBenchSmoke } from './smoke';

describe('bench/identity/read-bench.ts in smoke mode', () => {
  it('seeds, loads every target and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/identity/read-bench.ts');
    expect(stdout).toContain('| target | req/s | p50 ms | p90 ms | p99 ms | service CPU µs/req | Postgres CPU µs/req | errors |');
    for (const target of ['floor', 'project', 'projects', 'group']) {
      expect(stdout).toMatch(new RegExp(`^\\| ${target} \\| [1-9]\\d* \\| \\d+\\.\\d\\d \\| \\d+\\.\\d\\d \\| \\d+\\.\\d\\d \\| \\d+ \\| \\d+ \\| 0 \\|$`, 'm'));
    }
  }, 60_000);
});
