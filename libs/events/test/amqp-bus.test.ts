import { randomUUID } from 'node:crypto';
import amqp, { Channel, ChannelModel } from 'amqplib';
import { AmqpBus, ATTEMPT_HEADER, EXCHANGE, EventEnvelope, retryDelays, retryQueue, silentLogger, subscribeDefaults } from '../src';
import { amqpUrl, uid, waitFor } from './support/helpers';

describe('AmqpBus on the wire', () => {
  let bus: AmqpBus;
  let raw: ChannelModel;
  let ch: Channel;
  const queues: string[] = [];
  const ev = (type: string): EventEnvelope => ({ id: randomUUID(), type, occurred_at: new Date().toISOString(), producer: 'wire-test', version: 1, data: { ok: 1 } });

  /** checkQueue on a throwaway channel (a missing queue closes the channel). */
  const queueExists = async (q: string) => {
    const c = await raw.createChannel();
    c.on('error', () => undefined);
    const ok = await c.checkQueue(q).then(() => true, () => false);
    await c.close().catch(() => undefined);
    return ok;
  };

  beforeAll(async () => {
    bus = new AmqpBus(amqpUrl(), { logger: silentLogger });
    await bus.ready();
    raw = await amqp.connect(amqpUrl());
    ch = await raw.createChannel();
  });
  afterAll(async () => {
    for (const q of queues) await ch.deleteQueue(q);
    // the retry queues of the subscriptions with default options
    for (const q of queues.filter((x) => !x.endsWith('.dlq') && !x.includes('.retry.'))) {
      for (const d of retryDelays(subscribeDefaults())) await ch.deleteQueue(retryQueue(q, d));
    }
    await bus.close();
    await raw.close();
  });

  it('publishes persistent JSON to the durable topic exchange with the type as routing key', async () => {
    const q = `evt.${uid()}.wire`;
    const type = `w${uid()}.thing.done`;
    queues.push(q);
    await ch.assertQueue(q, { durable: true });
    await ch.bindQueue(q, EXCHANGE, type);
    const e = ev(type);
    await bus.publish(e);
    const msg = await waitFor(() => ch.get(q, { noAck: true }), 'the message');
    expect(msg.fields.routingKey).toBe(type);
    expect(msg.properties).toMatchObject({ deliveryMode: 2, contentType: 'application/json', messageId: e.id, type, appId: 'wire-test' });
    expect(JSON.parse(msg.content.toString())).toEqual(e);
  });

  it('gives each replica its own transient queue: both hear every event, and the broker drops the queues when they go', async () => {
    const type = `t${uid()}.cache.changed`;
    const [qa, qb] = [`evt.${uid()}.replica-a`, `evt.${uid()}.replica-b`];
    const heard: string[] = [];
    const other = new AmqpBus(amqpUrl(), { logger: silentLogger });
    const a = await bus.subscribe(qa, [type], async (e) => void heard.push(`a:${e.id}`), { transient: true });
    const b = await other.subscribe(qb, [type], async (e) => void heard.push(`b:${e.id}`), { transient: true });
    const e = ev(type);
    await bus.publish(e);
    await waitFor(async () => (heard.length === 2 ? heard : null), 'both replicas');
    expect(heard.sort()).toEqual([`a:${e.id}`, `b:${e.id}`]);
    expect(await queueExists(`${qa}.dlq`)).toBe(false);
    await a.close();
    await b.close();
    await other.close();
    await waitFor(async () => (!(await queueExists(qa)) && !(await queueExists(qb)) ? true : null), 'queues deleted');
  });

  it('rejects a subscription whose queue cannot be declared, and stays usable', async () => {
    const other = `evt.${uid()}.conflict`;
    queues.push(other, `${other}.dlq`);
    await ch.assertQueue(other, { durable: false, autoDelete: false });
    await expect(bus.subscribe(other, [`c${uid()}.x`], async () => undefined)).rejects.toThrow(/PRECONDITION_FAILED/);
    await expect(bus.publish(ev(`c${uid()}.after`))).resolves.toBeUndefined();
    expect(bus.connected).toBe(true);
  });

  it('re-declares a queue deleted under its consumer and resumes consuming', async () => {
    const q = `evt.${uid()}.deleted`;
    const type = `d${uid()}.thing.happened`;
    queues.push(q, `${q}.dlq`);
    const got: string[] = [];
    await bus.subscribe(q, [type], async (e) => void got.push(e.id));
    await ch.deleteQueue(q);
    expect(await queueExists(q)).toBe(false);
    await waitFor(() => queueExists(q), 'the re-declared queue', 5000, 100);
    const e = ev(type);
    await bus.publish(e);
    await waitFor(() => got.includes(e.id), 'the event after the queue came back');
  });

  it('parks a failed event in its retry queue (TTL, dead-lettered back) and frees the prefetch slot', async () => {
    const q = `evt.${uid()}.retry`;
    const type = `r${uid()}.thing.failed`;
    const retry = retryQueue(q, 5000);
    queues.push(q, `${q}.dlq`, retry, retryQueue(q, 10000));
    const seen: number[] = [];
    await bus.subscribe(q, [type], async (_e, d) => {
      seen.push(d.attempt);
      if (d.attempt === 1) throw new Error('later');
    }, { prefetch: 1, retryDelayMs: 5000, maxAttempts: 3 });
    await bus.publish(ev(type));
    await waitFor(async () => (await ch.checkQueue(retry)).messageCount === 1, 'the event in the retry queue', 4000, 25);
    // acked: nothing of it is left in the consumer queue, delivered or not
    const main = await ch.checkQueue(q);
    expect(main.messageCount).toBe(0);
    expect(seen).toEqual([1]);
    // the arguments a retry queue is declared with: TTL, back to the consumer queue through the default exchange
    const peek = await ch.get(retry, { noAck: false });
    expect(peek && peek.properties.headers?.[ATTEMPT_HEADER]).toBe(2);
    if (peek) ch.nack(peek, false, true);
    await waitFor(() => seen.length === 2, 'the retry, back from the retry queue', 10000, 25);
    expect(seen).toEqual([1, 2]);
    expect((await ch.checkQueue(retry)).messageCount).toBe(0);
  });
});
