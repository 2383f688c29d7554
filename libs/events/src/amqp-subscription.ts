import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { DeadLetter, EventEnvelope, EventHandler, EventLogger, SubscribeOptions, deadLetterQueue, errorMessage, retryDelays, retryQueue, subscribeDefaults } from './types';

/** Header carrying the delivery attempt (1 when absent). */
export const ATTEMPT_HEADER = 'x-anvil-attempt';
/** Headers set on a dead letter. */
export const DLQ_HEADERS = { error: 'x-anvil-error', queue: 'x-anvil-queue', failedAt: 'x-anvil-failed-at' } as const;
/** Header set on an event moved back from the dead-letter queue (when). */
export const REPLAYED_HEADER = 'x-anvil-replayed-at';

/**
 * The arguments of a retry queue: messages wait `delayMs`, then the broker dead-letters them through
 * the default exchange back to `queue`. A transient consumer's retry queues go once unused.
 */
export function retryQueueArguments(queue: string, delayMs: number, transient: boolean): Record<string, unknown> {
  const args: Record<string, unknown> = { 'x-message-ttl': delayMs, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue };
  if (transient) args['x-expires'] = Math.max(60_000, delayMs * 4);
  return args;
}

const REATTACH_MS = 500;

/** What a subscription needs from its bus. */
export interface SubscriptionHost {
  readonly exchange: string;
  readonly logger: EventLogger;
  /** The live connection, or null while disconnected. */
  current(): ChannelModel | null;
}

/**
 * One consumer of a durable queue: its own confirm channel (so `prefetch` is per subscription),
 * queue + retry queues + dead-letter queue + bindings declared on every (re)attach, manual ack after
 * the handler resolves. A failure is published (default exchange, so no other queue sees it) with
 * `x-anvil-attempt` + 1 to the retry queue `<queue>.retry.<attempt × retryDelayMs>ms`, whose TTL
 * dead-letters it back to `<queue>` when the delay is over; the last failure is published to
 * `<queue>.dlq` with the error headers. The original is acked as soon as the broker confirmed that
 * publish, so a waiting retry holds no prefetch slot. The consumer queue itself has no arguments
 * (queues declared by earlier versions stay valid), and a retry queue's name carries its delay, so
 * changing `retryDelayMs` declares new queues instead of conflicting with the old ones.
 */
export class AmqpSubscription {
  private readonly opts: Required<SubscribeOptions>;
  private channel: ConfirmChannel | null = null;
  private consumerTag: string | null = null;
  private attaching: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private reattachTimer: NodeJS.Timeout | null = null;
  closed = false;

  constructor(
    private readonly host: SubscriptionHost,
    readonly queue: string,
    private readonly patterns: string[],
    private readonly handler: EventHandler,
    opts?: SubscribeOptions,
  ) {
    this.opts = subscribeDefaults(opts);
  }

  /** The retry queues this subscription declares. */
  retryQueues(): string[] {
    return retryDelays(this.opts).map((d) => retryQueue(this.queue, d));
  }

  /** Declares the topology and starts consuming on `model`; a second call while attached is a no-op. */
  attach(model: ChannelModel): Promise<void> {
    if (this.closed || this.channel) return Promise.resolve();
    if (!this.attaching) this.attaching = this.doAttach(model).finally(() => (this.attaching = null));
    return this.attaching;
  }

  /** Attaches on a fresh connection; on failure logs and keeps retrying while that connection lives. */
  resume(model: ChannelModel): void {
    this.attach(model).catch((err) => {
      this.host.logger.warn('event consumer attach failed; retrying', { queue: this.queue, err: errorMessage(err) });
      this.scheduleReattach(model);
    });
  }

  /** Forgets the channel after a connection loss (the broker requeues what was unacked). */
  detach(): void {
    this.channel = null;
    this.consumerTag = null;
  }

  /** Stops consuming, waits for the handlers in flight (they ack), then closes the channel. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.reattachTimer) clearTimeout(this.reattachTimer);
    await this.attaching?.catch(() => undefined);
    const ch = this.channel;
    if (ch && this.consumerTag) await ch.cancel(this.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    this.channel = null;
    if (ch) await ch.close().catch(() => undefined);
  }

  private async doAttach(model: ChannelModel): Promise<void> {
    const ch = await model.createConfirmChannel();
    ch.on('error', (err: Error) => this.host.logger.warn('event consumer channel error', { queue: this.queue, err: err.message }));
    ch.on('close', () => this.onChannelClosed(ch, model));
    try {
      await ch.prefetch(this.opts.prefetch);
      if (this.opts.transient) {
        await ch.assertQueue(this.queue, { durable: false, autoDelete: true });
      } else {
        await ch.assertQueue(deadLetterQueue(this.queue), { durable: true });
        await ch.assertQueue(this.queue, { durable: true });
      }
      for (const delay of retryDelays(this.opts)) {
        await ch.assertQueue(retryQueue(this.queue, delay), { durable: !this.opts.transient, arguments: retryQueueArguments(this.queue, delay, this.opts.transient) });
      }
      for (const p of this.patterns) await ch.bindQueue(this.queue, this.host.exchange, p);
      if (this.closed) throw new Error('subscription closed');
      this.channel = ch;
      const { consumerTag } = await ch.consume(this.queue, (msg) => this.onMessage(ch, msg), { noAck: false });
      this.consumerTag = consumerTag;
    } catch (err) {
      this.channel = null;
      await ch.close().catch(() => undefined);
      throw err;
    }
  }

  /** A channel closed while its connection lives on (e.g. the queue was deleted): attach again later. */
  private onChannelClosed(ch: ConfirmChannel, model: ChannelModel): void {
    if (this.channel !== ch) return;
    this.detach();
    this.scheduleReattach(model);
  }

  private scheduleReattach(model: ChannelModel): void {
    if (this.closed || this.reattachTimer) return;
    this.reattachTimer = setTimeout(() => {
      this.reattachTimer = null;
      if (!this.closed && this.host.current() === model) this.resume(model);
    }, REATTACH_MS);
  }

  private onMessage(ch: ConfirmChannel, msg: ConsumeMessage | null): void {
    if (!msg) {
      // The broker cancelled the consumer (queue deleted): close the channel, which attaches anew.
      if (this.channel === ch) ch.close().catch(() => undefined);
      return;
    }
    const run = this.handle(ch, msg)
      .catch((err) => this.host.logger.error('event consumer failed', { queue: this.queue, err: errorMessage(err) }))
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async handle(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const attempt = Math.max(1, Number(msg.properties.headers?.[ATTEMPT_HEADER] ?? 1) || 1);
    let event: EventEnvelope;
    try {
      event = JSON.parse(msg.content.toString('utf8')) as EventEnvelope;
    } catch (err) {
      return this.forward(ch, msg, deadLetterQueue(this.queue), attempt, err, true);
    }
    try {
      await this.handler(event, { queue: this.queue, attempt, redelivered: msg.fields.redelivered || attempt > 1 });
    } catch (err) {
      if (attempt >= this.opts.maxAttempts) return this.forward(ch, msg, deadLetterQueue(this.queue), attempt, err, true);
      return this.forward(ch, msg, retryQueue(this.queue, attempt * this.opts.retryDelayMs), attempt + 1, err, false);
    }
    ack(ch, msg);
  }

  /** Publishes the message to `target` (confirmed), then acks the original; on failure leaves it unacked. */
  private async forward(ch: ConfirmChannel, msg: ConsumeMessage, target: string, attempt: number, err: unknown, dead: boolean): Promise<void> {
    const headers = { ...msg.properties.headers, [ATTEMPT_HEADER]: attempt };
    if (dead) Object.assign(headers, { [DLQ_HEADERS.error]: errorMessage(err).slice(0, 1000), [DLQ_HEADERS.queue]: this.queue, [DLQ_HEADERS.failedAt]: new Date().toISOString() });
    try {
      await new Promise<void>((resolve, reject) => {
        ch.sendToQueue(target, msg.content, { ...copyProps(msg), headers }, (e) => (e ? reject(e) : resolve()));
      });
      ack(ch, msg);
      if (dead) this.host.logger.warn('event dead-lettered', { queue: this.queue, attempts: attempt, err: errorMessage(err) });
    } catch (e) {
      this.host.logger.warn('event retry publish failed; the broker will redeliver', { queue: this.queue, err: errorMessage(e) });
    }
  }
}

function copyProps(msg: ConsumeMessage) {
  const p = msg.properties;
  return { persistent: true, contentType: p.contentType, messageId: p.messageId, type: p.type, appId: p.appId, timestamp: p.timestamp };
}

function ack(ch: ConfirmChannel, msg: ConsumeMessage): void {
  try {
    ch.ack(msg);
  } catch {
    // Channel already closed: the broker redelivers, and the inbox makes that harmless.
  }
}

/** Reads a dead letter back from its AMQP message. */
export function toDeadLetter(queue: string, content: Buffer, headers: Record<string, unknown> = {}): DeadLetter {
  let event: EventEnvelope;
  try {
    event = JSON.parse(content.toString('utf8')) as EventEnvelope;
  } catch {
    event = { id: '', type: '', occurred_at: '', producer: '', version: 0, data: content.toString('utf8') };
  }
  return {
    queue,
    event,
    attempts: Number(headers[ATTEMPT_HEADER] ?? 1),
    error: String(headers[DLQ_HEADERS.error] ?? ''),
    failed_at: String(headers[DLQ_HEADERS.failedAt] ?? ''),
  };
}
