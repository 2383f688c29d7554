import { randomUUID } from 'node:crypto';
import { EventMetrics, InMemoryBus } from '../src';
import { uid, waitFor } from './support/helpers';

describe('EventMetrics', () => {
  it('counts deliveries by outcome, redeliveries, and the dead letters of each consumed queue', async () => {
    const bus = new InMemoryBus();
    const metrics = new EventMetrics({ bus, labels: { service: 'probe' } });
    const p = `m${uid()}`;
    const queue = `${p}.q`;
    const attempts = new Map<string, number>();
    await bus.subscribe(queue, [`${p}.#`], metrics.counted(queue, async (e) => {
      const n = (attempts.get(e.id) ?? 0) + 1;
      attempts.set(e.id, n);
      if (e.type.endsWith('.poison') || n === 1) throw new Error('no');
    }), { maxAttempts: 2, retryDelayMs: 5 });
    const ev = (type: string) => ({ id: randomUUID(), type: `${p}.${type}`, occurred_at: new Date().toISOString(), producer: 't', version: 1, data: null });
    await bus.publish(ev('flaky.once'));
    await bus.publish(ev('always.poison'));
    await waitFor(async () => (await bus.deadLetterCount(queue)) === 1 && [...attempts.values()].reduce((a, b) => a + b, 0) === 4, 'both events settled');
    const text = await metrics.registry.metrics();
    expect(text).toContain(`anvil_events_consumed_total{queue="${queue}",outcome="failed",service="probe"} 3`);
    expect(text).toContain(`anvil_events_consumed_total{queue="${queue}",outcome="ok",service="probe"} 1`);
    expect(text).toContain(`anvil_events_redeliveries_total{queue="${queue}",service="probe"} 2`);
    expect(text).toContain(`anvil_events_dead_letters{queue="${queue}",service="probe"} 1`);
    await bus.replayDeadLetters(queue);
    await waitFor(async () => (await bus.deadLetterCount(queue)) === 1 && attempts.size === 2 && [...attempts.values()].reduce((a, b) => a + b, 0) === 6, 'the replayed letter dead again');
    expect(await metrics.registry.metrics()).toContain(`anvil_events_consumed_total{queue="${queue}",outcome="failed",service="probe"} 5`);
    await bus.close();
  });
});
