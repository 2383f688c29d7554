import { runBenchSmoke } from './smoke';

describe('bench/issues in smoke mode', () => {
  it('seeds, loads every endpoint through the gateway and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/issues/run.ts');
    expect(stdout).toContain('| endpoint | achieved RPS | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    const rows = stdout.match(/^\| GET \S+( \((filters|first page|last page)\))? \| [1-9]\d* \| \d+\.\d \| \d+\.\d \| \d+\.\d \| 100\.00% \| \d+\.\d\d \|$/gm);
    expect(rows).toHaveLength(9);
  }, 60_000);
});
