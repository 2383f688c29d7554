import { runBenchSmoke } from './smoke';

describe('bench/identity/lists.ts in smoke mode', () => {
  it('seeds users and groups, loads GET /users and GET /groups through the gateway and prints the table', async () => {
    const { stdout } = await runBenchSmoke('bench/identity/lists.ts');
    expect(stdout).toContain('1000 users, 100 groups');
    expect(stdout).toContain('| endpoint | achieved RPS | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    const rows = stdout.match(/^\| GET \/(users|groups)(\?search=)? \| [1-9]\d* \| \d+\.\d \| \d+\.\d \| \d+\.\d \| 100\.00% \| \d+\.\d\d \|$/gm);
    expect(rows).toHaveLength(4);
  }, 60_000);
});
