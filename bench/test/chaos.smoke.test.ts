import { runBenchSmoke } from './smoke';

describe('bench/chaos in smoke mode', () => {
  it('kills a service, restarts RabbitMQ and Postgres under load, and finds nothing lost', async () => {
    const { stdout } = await runBenchSmoke('bench/chaos/run.ts');
    expect(stdout).toMatch(/^ +\d+\.\d s {2}kill -9 [a-z-]+, back in \d+\.\d s$/m);
    expect(stdout).toMatch(/^ +\d+\.\d s {2}RabbitMQ restarted in \d+\.\d s$/m);
    expect(stdout).toMatch(/^ +\d+\.\d s {2}Postgres restarted in \d+\.\d s$/m);
    expect(stdout).toContain('drained: yes; unpublished outbox rows: 0');
    expect(stdout).toMatch(/^issues: acknowledged [1-9]\d*, stored \d+, acknowledged but missing 0$/m);
    expect(stdout).toMatch(/^events: work-items\.issue\.created published (\d+), applied \(delivered to the group hook\) \1: equal$/m);
    expect(stdout).toMatch(/^conan uploads: acknowledged [1-9]\d*, recorded \d+, acknowledged but not recorded 0$/m);
    expect(stdout).toMatch(/^files: recorded \d+, stored \d+ of them: equal; stored but unrecorded \d+$/m);
    expect(stdout).toMatch(/^\| identity \| \d+\.\d \| \d+\.\d \|$/m);
    expect(stdout).toContain('verdict: nothing lost');
  }, 600_000);
});
