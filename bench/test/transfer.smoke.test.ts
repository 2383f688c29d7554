import { runBenchSmoke } from './smoke';

describe('bench/transfer in smoke mode', () => {
  it('seeds, exports, downloads and imports at 1× and 2×, checks the imported counts and prints the tables', async () => {
    const { stdout } = await runBenchSmoke('bench/transfer/run.ts');
    expect(stdout).toMatch(/^seeded 100 issues, 1000 notes, 10 pipelines and 30 jobs in /m);
    expect(stdout).toMatch(/^\| 1× \| 100 \| 1000 \| 10 \| 30 \| 11 \| \d+\.\d \| \d+\.\d \| \d+\.\d \| \d+\.\d \| \d+\.\d\d \|$/m);
    expect(stdout).toMatch(/^\| 2× \| 200 \| 2000 \| 20 \| 60 \| 11 \| /m);
    expect(stdout).toMatch(/^\| 1× \| (\d+\.\d \| ){4}\d+\.\d \|$/m);
    expect(stdout).toMatch(/^2× \/ 1×: export \d+\.\d\d×, import \d+\.\d\d× \(bound: 2\.20×\)$/m);
    expect(stdout).toContain('imported counts equal the source at every scale');
  }, 600_000);
});
