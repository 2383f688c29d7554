import { runBenchSmoke } from './smoke';

describe('bench/pipelines in smoke mode', () => {
  it('seeds, loads every endpoint through the gateway and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/pipelines/run.ts');
    expect(stdout).toMatch(/^seeded 1000 pipelines and 3000 jobs in /m);
    expect(stdout).toContain('| endpoint | achieved RPS | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    const rows = stdout.match(/^\| GET \S+( \(filters\))? \| [1-9]\d* \| \d+\.\d \| \d+\.\d \| \d+\.\d \| 100\.00% \| \d+\.\d\d \|$/gm);
    expect(rows).toHaveLength(3);
  }, 90_000);
});
