import { runBenchSmoke } from './smoke';

describe('bench/stream in smoke mode', () => {
  it('streams the upload direct and through the gateway and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/stream/run.ts');
    expect(stdout).toContain('| path | MB/s | gateway RSS idle MB | gateway peak RSS MB |');
    expect(stdout).toMatch(/^\| direct to the service \| [1-9]\d* \|/m);
    expect(stdout).toMatch(/^\| through the gateway \| [1-9]\d* \| \d+\.\d \| \d+\.\d \|$/m);
  }, 60_000);
});
