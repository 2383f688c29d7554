import { randomUUID } from 'node:crypto';
import { Delivery, EventEnvelope, ManagedEventBus, SubscribeOptions, Subscription } from '../../src';
import { gate, sleep, uid, waitFor } from './helpers';

/**
 * The semantics both adapters promise, run against each. Every test uses its own event-type prefix
 * and queue names (the broker is shared and persistent), and deletes its queues afterwards.
 */
export function busContract(makeBus: () => ManagedEventBus): void {
  let bus: ManagedEventBus;
  let p: string;
  const queues: string[] = [];
  const subs: Subscription[] = [];

  const ev = (type: string, data: unknown = {}): EventEnvelope => ({
    id: randomUUID(),
    type: `${p}.${type}`,
    occurred_at: new Date().toISOString(),
    producer: 'contract-test',
    version: 1,
    data,
  });
  const subscribe = async (name: string, patterns: string[], handler: (e: EventEnvelope, d: Delivery) => Promise<void>, opts?: SubscribeOptions) => {
    const queue = `${p}.${name}`;
    if (!queues.includes(queue)) queues.push(queue);
    const sub = await bus.subscribe(queue, patterns.map((x) => `${p}.${x}`), handler, opts);
    subs.push(sub);
    return { queue, sub };
  };
  const recorder = () => {
    const got: EventEnvelope[] = [];
    const types = () => got.map((e) => e.type.slice(p.length + 1));
    return { got, types, handler: async (e: EventEnvelope) => void got.push(e) };
  };

  beforeAll(async () => {
    bus = makeBus();
    await bus.ready();
  });
  beforeEach(() => {
    p = `ct${uid()}`;
  });
  afterEach(async () => {
    await Promise.all(subs.splice(0).map((s) => s.close()));
    for (const q of queues.splice(0)) await bus.deleteQueue(q);
  });
  afterAll(async () => {
    await bus.close();
  });

  it('delivers the published envelope unchanged', async () => {
    const r = recorder();
    await subscribe('q', ['thing.created'], r.handler);
    const e = ev('thing.created', { id: 7, tags: ['a'], nested: { ok: true } });
    await bus.publish(e);
    await waitFor(() => r.got.length === 1, 'the event');
    expect(r.got[0]).toEqual(e);
  });

  it('matches topics: * is exactly one word, # zero or more', async () => {
    const r = recorder();
    await subscribe('q', ['orders.*.created', 'audit.#', 'x.#.end'], r.handler, { prefetch: 1 });
    const sent = ['orders.eu.created', 'orders.eu.west.created', 'orders.created', 'audit', 'audit.a.b.c', 'x.end', 'x.1.2.end', 'x.end.no', 'other.created'];
    for (const t of sent) await bus.publish(ev(t));
    await bus.publish(ev('audit.sentinel'));
    await waitFor(() => r.types().includes('audit.sentinel'), 'the sentinel');
    expect(r.types()).toEqual(['orders.eu.created', 'audit', 'audit.a.b.c', 'x.end', 'x.1.2.end', 'audit.sentinel']);
  });

  it('does not deliver to queues whose bindings do not match, and drops unroutable events', async () => {
    const a = recorder();
    const b = recorder();
    await subscribe('a', ['a.*'], a.handler);
    await subscribe('b', ['b.*'], b.handler);
    await expect(bus.publish(ev('nobody.listens'))).resolves.toBeUndefined();
    await bus.publish(ev('a.one'));
    await bus.publish(ev('b.sentinel'));
    await waitFor(() => a.got.length === 1 && b.got.length === 1, 'both queues');
    await sleep(50);
    expect(a.types()).toEqual(['a.one']);
    expect(b.types()).toEqual(['b.sentinel']);
  });

  it('lets consumers of one queue compete: each event goes to exactly one of them', async () => {
    const one = recorder();
    const two = recorder();
    const slow = (r: ReturnType<typeof recorder>) => async (e: EventEnvelope) => {
      r.got.push(e);
      await sleep(5);
    };
    await subscribe('work', ['job.*'], slow(one), { prefetch: 1 });
    await subscribe('work', ['job.*'], slow(two), { prefetch: 1 });
    const sent = Array.from({ length: 20 }, (_, i) => ev(`job.n${i}`));
    await Promise.all(sent.map((e) => bus.publish(e)));
    await waitFor(() => one.got.length + two.got.length === 20, 'all 20 jobs');
    await sleep(50);
    const ids = [...one.got, ...two.got].map((e) => e.id).sort();
    expect(ids).toEqual(sent.map((e) => e.id).sort());
    expect(one.got.length).toBeGreaterThan(0);
    expect(two.got.length).toBeGreaterThan(0);
  });

  it('redelivers an event whose handler threw, with the attempt number', async () => {
    const seen: Delivery[] = [];
    await subscribe('q', ['flaky'], async (_e, d) => {
      seen.push(d);
      if (d.attempt === 1) throw new Error('transient');
    }, { retryDelayMs: 10 });
    await bus.publish(ev('flaky'));
    await waitFor(() => seen.length === 2, 'the redelivery');
    await sleep(100);
    expect(seen.map((d) => [d.attempt, d.redelivered])).toEqual([[1, false], [2, true]]);
    expect(await bus.deadLetters(`${p}.q`)).toEqual([]);
  });

  it('dead-letters an event after maxAttempts failures', async () => {
    let calls = 0;
    const { queue } = await subscribe('q', ['poison'], async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    }, { maxAttempts: 3, retryDelayMs: 10 });
    const e = ev('poison', { n: 1 });
    await bus.publish(e);
    const dead = await waitFor(async () => {
      const d = await bus.deadLetters(queue);
      return d.length ? d : undefined;
    }, 'the dead letter', 5000, 25);
    await sleep(100);
    expect(calls).toBe(3);
    expect(dead).toEqual([{ queue, event: e, attempts: 3, error: 'boom 3', failed_at: expect.any(String) }]);
    expect(await bus.deadLetters(queue)).toHaveLength(1);
  });

  it('acks only after the handler resolves: prefetch 1 holds the next event until then', async () => {
    const r = recorder();
    const held = gate();
    let finished = 0;
    await subscribe('q', ['step'], async (e) => {
      r.got.push(e);
      if (r.got.length === 1) await held.promise;
      finished++;
    }, { prefetch: 1 });
    await bus.publish(ev('step', { n: 1 }));
    await bus.publish(ev('step', { n: 2 }));
    await waitFor(() => r.got.length === 1, 'the first event');
    await sleep(150);
    expect(r.got).toHaveLength(1);
    held.open();
    await waitFor(() => r.got.length === 2 && finished === 2, 'the second event');
    expect(r.got.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('close() of a subscription waits for its handlers in flight', async () => {
    const held = gate();
    let started = false;
    let done = false;
    const { sub } = await subscribe('q', ['slow'], async () => {
      started = true;
      await held.promise;
      await sleep(20);
      done = true;
    });
    await bus.publish(ev('slow'));
    await waitFor(() => started, 'the handler to start');
    setTimeout(held.open, 50);
    await sub.close();
    expect(done).toBe(true);
  });

  it('lets other events through while a failed one waits for its retry (prefetch 1)', async () => {
    const log: string[] = [];
    const at: Record<string, number> = {};
    const applied: string[] = [];
    await subscribe('q', ['hol.*'], async (e, d) => {
      const name = e.type.slice(p.length + 5);
      log.push(`${name}#${d.attempt}`);
      at[`${name}#${d.attempt}`] = Date.now();
      if (name === 'first' && d.attempt < 3) throw new Error(`not yet ${d.attempt}`);
      applied.push(name);
    }, { prefetch: 1, retryDelayMs: 2000, maxAttempts: 5 });
    await bus.publish(ev('hol.first'));
    await bus.publish(ev('hol.second'));
    await waitFor(() => applied.includes('first'), 'the first event, applied on its third attempt', 15_000);
    await sleep(100);
    expect(applied.sort()).toEqual(['first', 'second']);
    // the second event was handled while the first waited for its retry, not after the delay
    expect(log.indexOf('second#1')).toBeLessThan(log.indexOf('first#2'));
    expect(at['second#1'] - at['first#1']).toBeLessThan(1500);
    expect(at['first#2'] - at['first#1']).toBeGreaterThanOrEqual(1900);
    expect(log.filter((x) => x.startsWith('first'))).toEqual(['first#1', 'first#2', 'first#3']);
    expect(await bus.deadLetters(`${p}.q`)).toEqual([]);
  });

  it('replays dead letters back to their queue as first deliveries, by id and limit', async () => {
    let fixed = false;
    const applied: Array<[string, number]> = [];
    const { queue } = await subscribe('q', ['dl'], async (e, d) => {
      if (!fixed) throw new Error(`broken on ${(e.data as { n: number }).n}`);
      applied.push([e.id, d.attempt]);
    }, { maxAttempts: 2, retryDelayMs: 10 });
    const events = [ev('dl', { n: 1 }), ev('dl', { n: 2 }), ev('dl', { n: 3 })];
    for (const e of events) await bus.publish(e);
    await waitFor(async () => (await bus.deadLetterCount(queue)) === 3, 'three dead letters', 10_000, 25);
    const dead = await bus.deadLetters(queue);
    expect(dead.map((d) => [d.event.id, d.attempts])).toEqual(expect.arrayContaining(events.map((e) => [e.id, 2])));
    expect(dead.find((d) => d.event.id === events[1].id)?.error).toBe('broken on 2');
    fixed = true;
    const one = await bus.replayDeadLetters(queue, { id: events[1].id });
    expect(one.map((d) => d.event.id)).toEqual([events[1].id]);
    await waitFor(() => applied.length === 1, 'the replayed event');
    expect(applied).toEqual([[events[1].id, 1]]);
    expect(await bus.deadLetterCount(queue)).toBe(2);
    expect(await bus.replayDeadLetters(queue, { limit: 1 })).toHaveLength(1);
    expect(await bus.replayDeadLetters(queue)).toHaveLength(1);
    await waitFor(() => applied.length === 3, 'every replayed event');
    expect(applied.map(([id]) => id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(await bus.deadLetters(queue)).toEqual([]);
    await expect(bus.replayDeadLetters(`${p}.nothing-here`)).rejects.toThrow(/does not exist/);
  });
}
