import { runBenchSmoke } from './smoke';

describe('bench/pipelines/idle-runners in smoke mode', () => {
  it('holds idle runners, measures the fleet and the wake-up, and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/pipelines/idle-runners.ts');
    expect(stdout).toMatch(/^10 idle runners long-polling \(1000 ms\) for \d+\.\d s: [1-9]\d* requests answered$/m);
    expect(stdout).toContain('| process | CPU % of one core |');
    expect(stdout).toMatch(/^\| fleet \| \d+\.\d\d \|$/m);
    expect(stdout).toMatch(/its job held by a runner \d+ ms after$/m);
  }, 120_000);
});
