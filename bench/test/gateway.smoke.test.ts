import { runBenchSmoke } from './smoke';

describe('bench/gateway in smoke mode', () => {
  it('starts the fleet, measures both targets direct and through the gateway, and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/gateway/run.ts');
    for (const target of ['tiny upstream, one indexed query', 'identity']) expect(stdout).toContain(`[${target}]`);
    expect(stdout).toMatch(/^\s+req\/s\s+p50 ms\s+p90 ms\s+p99 ms\s+errors$/m);
    expect(stdout.match(/^direct\s+[1-9]\d*\s+\d+\.\d+\s+\d+\.\d+\s+\d+\.\d+\s+0$/gm)).toHaveLength(2);
    expect(stdout.match(/^through gateway\s+[1-9]\d*\s+\d+\.\d+\s+\d+\.\d+\s+\d+\.\d+\s+0$/gm)).toHaveLength(2);
    expect(stdout).toMatch(/^throughput kept: \d+\.\d%/m);
  }, 60_000);
});
