import { runBenchSmoke } from './smoke';

describe('bench/registry in smoke mode', () => {
  it('measures Anvil, says the reference servers were not run, and prints both tables', async () => {
    const { stdout } = await runBenchSmoke('bench/registry/run.ts');
    expect(stdout).toContain('| target | size | reps | upload MB/s | download MB/s | uploads/s | downloads/s | peak RSS |');
    for (const size of ['1K', '1M']) expect(stdout).toMatch(new RegExp(`^\\| anvil \\(gateway → registry\\) \\| ${size} \\| \\d+ \\| \\d+\\.\\d \\| \\d+\\.\\d \\| \\d+\\.\\d \\| \\d+\\.\\d \\| gateway \\d+\\.\\d MB, registry \\d+\\.\\d MB \\|$`, 'm'));
    expect(stdout).toContain('| conan_server (gunicorn -w 4) | peer: not run (smoke mode) |');
    expect(stdout).toContain('| conan_server (single-threaded) | peer: not run (smoke mode) |');
    for (const endpoint of ['ping', 'authenticate']) expect(stdout).toMatch(new RegExp(`^\\| anvil \\(gateway → registry\\) \\| ${endpoint} \\| \\d+/s \\| \\d+/s \\| 0 \\| \\d+\\.\\d \\|`, 'm'));
  }, 60_000);
});
