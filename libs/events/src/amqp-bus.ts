import amqp, { Channel, ChannelModel, ConfirmChannel, RecoveringChannelModel } from 'amqplib';
import { ATTEMPT_HEADER, AmqpSubscription, DLQ_HEADERS, REPLAYED_HEADER, SubscriptionHost, toDeadLetter } from './amqp-subscription';
import { assertEventType, assertPattern } from './topic';
import {
  DeadLetter,
  EXCHANGE,
  EventEnvelope,
  EventHandler,
  EventLogger,
  ManagedEventBus,
  ReplayOptions,
  SubscribeOptions,
  Subscription,
  deadLetterQueue,
  errorMessage,
  retryDelays,
  retryQueue,
  stderrLogger,
  subscribeDefaults,
} from './types';

/** Tuning of the RabbitMQ adapter; every field has a default. */
export interface AmqpBusOptions {
  /** Topic exchange (default `anvil.events`, declared durable). */
  exchange?: string;
  logger?: EventLogger;
  /** How long `publish`/`subscribe` wait for the very first connection (default 5000 ms). */
  initialWaitMs?: number;
  /** A publish not confirmed by the broker within this time rejects (default 10000 ms). */
  publishTimeoutMs?: number;
  /** TCP connect timeout of one attempt (default 5000 ms). */
  connectTimeoutMs?: number;
  /** First reconnect delay; it doubles (with jitter) up to `maxReconnectDelayMs` (defaults 100 / 5000 ms). */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

/** Thrown by `publish` while the broker is unreachable; the outbox relay retries later. */
export class BusUnavailableError extends Error {
  constructor(message = 'event broker is not connected') {
    super(message);
    this.name = 'BusUnavailableError';
  }
}

/**
 * The RabbitMQ adapter (amqplib 2.x). It connects lazily on first use and reconnects forever
 * (exponential backoff) after a broker restart or connection loss; connection errors are logged,
 * never thrown. Publishing uses a confirm channel with persistent messages and resolves on the
 * broker's confirm. While disconnected, `publish` rejects at once with `BusUnavailableError`
 * (before the first connection it waits up to `initialWaitMs`). Subscriptions are re-declared and
 * resume consuming after every reconnect. A failed event is published with an attempt header to a
 * retry queue whose TTL dead-letters it back to its queue (`AmqpSubscription`), and after the last
 * attempt to the durable `<queue>.dlq`; attempts are counted exactly and the consumer queue itself
 * needs no special arguments. `replayDeadLetters` moves dead letters back.
 */
export class AmqpBus implements ManagedEventBus, SubscriptionHost {
  readonly exchange: string;
  readonly logger: EventLogger;
  private readonly opts: Required<Omit<AmqpBusOptions, 'exchange' | 'logger'>>;
  private connection: Promise<RecoveringChannelModel> | null = null;
  private model: ChannelModel | null = null;
  private everConnected = false;
  private waiters: Array<() => void> = [];
  private publishChannel: Promise<ConfirmChannel> | null = null;
  private readonly subs = new Set<AmqpSubscription>();
  private closed = false;

  constructor(
    private readonly url: string,
    opts: AmqpBusOptions = {},
  ) {
    this.exchange = opts.exchange ?? EXCHANGE;
    this.logger = opts.logger ?? stderrLogger;
    this.opts = {
      initialWaitMs: opts.initialWaitMs ?? 5000,
      publishTimeoutMs: opts.publishTimeoutMs ?? 10000,
      connectTimeoutMs: opts.connectTimeoutMs ?? 5000,
      reconnectDelayMs: opts.reconnectDelayMs ?? 100,
      maxReconnectDelayMs: opts.maxReconnectDelayMs ?? 5000,
    };
  }

  /** True while a broker connection is up. */
  get connected(): boolean {
    return this.model !== null;
  }

  /** The live connection (or null); used by subscriptions. */
  current(): ChannelModel | null {
    return this.model;
  }

  /** Starts connecting (if not yet) and resolves once connected; rejects after `timeoutMs`. */
  async ready(timeoutMs = 10000): Promise<void> {
    if (!(await this.waitConnected(timeoutMs))) throw new BusUnavailableError(`event broker not reachable within ${timeoutMs} ms`);
  }

  /** Publishes persistently to the exchange with routing key `event.type`; resolves on the broker's confirm. */
  async publish(event: EventEnvelope): Promise<void> {
    assertEventType(event.type);
    const ch = await this.confirmChannel();
    const body = Buffer.from(JSON.stringify(event));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new BusUnavailableError('publish not confirmed in time')), this.opts.publishTimeoutMs);
      const done = (err: unknown) => {
        clearTimeout(timer);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve();
      };
      try {
        const props = { persistent: true, contentType: 'application/json', messageId: event.id, type: event.type, appId: event.producer };
        ch.publish(this.exchange, event.type, body, props, done);
      } catch (err) {
        done(err);
      }
    });
  }

  /**
   * Declares the durable queue `queue` (and `<queue>.dlq`), binds it to each pattern and consumes
   * it. Resolves once consuming when connected; while disconnected it resolves after
   * `initialWaitMs` at most, and consuming starts when the connection comes up.
   */
  async subscribe(queue: string, patterns: string[], handler: EventHandler, opts?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('event bus is closed');
    patterns.forEach(assertPattern);
    const sub = new AmqpSubscription(this, queue, patterns, handler, opts);
    this.subs.add(sub);
    const close = async () => {
      this.subs.delete(sub);
      await sub.close();
    };
    const model = (await this.waitConnected(this.opts.initialWaitMs)) ? this.model : null;
    if (model) {
      await sub.attach(model).catch(async (err) => {
        if (this.model !== model && !this.closed) return; // lost the connection meanwhile: it attaches on reconnect
        await close();
        throw err;
      });
    }
    return { close };
  }

  /** Reads `<queue>.dlq` without consuming it (messages are fetched unacked, then returned). */
  async deadLetters(queue: string): Promise<DeadLetter[]> {
    return this.withChannel(async (ch) => {
      await ch.assertQueue(deadLetterQueue(queue), { durable: true });
      const out: DeadLetter[] = [];
      for (let msg = await ch.get(deadLetterQueue(queue)); msg; msg = await ch.get(deadLetterQueue(queue))) {
        out.push(toDeadLetter(queue, msg.content, msg.properties.headers));
      }
      return out;
    });
  }

  /** How many events sit in `<queue>.dlq` (declaring it when missing). */
  async deadLetterCount(queue: string): Promise<number> {
    return this.withChannel(async (ch) => (await ch.assertQueue(deadLetterQueue(queue), { durable: true })).messageCount);
  }

  /**
   * Moves dead letters back to `queue` (which must exist): each is published to it with attempt 1
   * and without the error headers, confirmed, then removed from `<queue>.dlq`. Letters skipped by
   * `id` go back to the dead-letter queue unchanged when the channel closes.
   */
  async replayDeadLetters(queue: string, opts: ReplayOptions = {}): Promise<DeadLetter[]> {
    const limit = opts.limit ?? Infinity;
    const model = await this.liveModel();
    const ch = await model.createConfirmChannel();
    ch.on('error', () => undefined);
    try {
      await ch.checkQueue(queue).catch((err: unknown) => {
        throw new Error(`queue ${queue} does not exist: ${errorMessage(err)}`);
      });
      const dlq = deadLetterQueue(queue);
      const { messageCount } = await ch.assertQueue(dlq, { durable: true });
      const moved: DeadLetter[] = [];
      for (let i = 0; i < messageCount && moved.length < limit; i++) {
        const msg = await ch.get(dlq, { noAck: false });
        if (!msg) break;
        const letter = toDeadLetter(queue, msg.content, msg.properties.headers);
        if (opts.id !== undefined && letter.event.id !== opts.id) continue;
        const headers: Record<string, unknown> = { ...msg.properties.headers, [ATTEMPT_HEADER]: 1, [REPLAYED_HEADER]: new Date().toISOString() };
        for (const h of Object.values(DLQ_HEADERS)) delete headers[h];
        const p = msg.properties;
        await new Promise<void>((resolve, reject) => {
          const props = { persistent: true, contentType: p.contentType, messageId: p.messageId, type: p.type, appId: p.appId, timestamp: p.timestamp, headers };
          ch.sendToQueue(queue, msg.content, props, (e) => (e ? reject(e) : resolve()));
        });
        ch.ack(msg);
        moved.push(letter);
      }
      return moved;
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  /** Closes this bus's subscriptions on `queue`, then deletes `queue`, its retry queues and `<queue>.dlq` on the broker. */
  async deleteQueue(queue: string): Promise<void> {
    const mine = [...this.subs].filter((s) => s.queue === queue);
    mine.forEach((s) => this.subs.delete(s));
    await Promise.all(mine.map((s) => s.close()));
    const retries = new Set([...mine.flatMap((s) => s.retryQueues()), ...retryDelays(subscribeDefaults()).map((d) => retryQueue(queue, d))]);
    await this.withChannel(async (ch) => {
      await ch.deleteQueue(queue);
      for (const r of retries) await ch.deleteQueue(r);
      await ch.deleteQueue(deadLetterQueue(queue));
    });
  }

  /** Closes subscriptions (waiting for their handlers), then the connection; stops reconnecting. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subs].map((s) => s.close()));
    this.subs.clear();
    const pub = this.publishChannel;
    this.publishChannel = null;
    if (pub) await pub.then((ch) => ch.close()).catch(() => undefined);
    const conn = this.connection;
    this.model = null;
    this.waiters.splice(0).forEach((w) => w());
    if (conn) await conn.then((c) => c.close()).catch(() => undefined);
  }

  private start(): void {
    if (this.connection || this.closed) return;
    const recovery = {
      initialDelay: this.opts.reconnectDelayMs,
      maxDelay: this.opts.maxReconnectDelayMs,
      maxRetries: Infinity,
      waitForConnect: false,
      setup: (model: ChannelModel) => this.setup(model),
    };
    this.connection = amqp.connect(this.url, { timeout: this.opts.connectTimeoutMs, recovery }).then((conn) => {
      conn.on('error', (err: Error) => this.logger.warn('event broker connection error', { err: err.message }));
      conn.on('handler-error', (err: Error) => this.logger.error('event bus listener threw', { err: err.message }));
      conn.on('connect', (model: ChannelModel) => this.onConnect(model));
      conn.on('disconnect', (err: Error) => this.onDisconnect(err));
      conn.on('connect-failed', (err: Error) => this.logger.debug?.('event broker connect failed', { err: err.message }));
      return conn;
    });
    this.connection.catch((err) => this.logger.error('event broker connection setup failed', { err: errorMessage(err) }));
  }

  /** Runs on every (re)connect before it counts as up: error listener, then the exchange. */
  private async setup(model: ChannelModel): Promise<void> {
    model.on('error', () => undefined);
    const ch = await model.createChannel();
    ch.on('error', () => undefined);
    await ch.assertExchange(this.exchange, 'topic', { durable: true });
    await ch.close();
  }

  private onConnect(model: ChannelModel): void {
    if (this.closed) return;
    if (this.everConnected) this.logger.info?.('event broker reconnected');
    this.model = model;
    this.everConnected = true;
    this.waiters.splice(0).forEach((w) => w());
    for (const sub of this.subs) sub.resume(model);
  }

  private onDisconnect(err: Error): void {
    this.logger.warn('event broker disconnected; reconnecting', { err: err.message });
    this.model = null;
    this.publishChannel = null;
    for (const sub of this.subs) sub.detach();
  }

  /** The live connection, or BusUnavailableError (waiting up to `initialWaitMs` before the first connection). */
  private async liveModel(): Promise<ChannelModel> {
    const up = await this.waitConnected(this.opts.initialWaitMs);
    if (!up || !this.model) throw new BusUnavailableError();
    return this.model;
  }

  /** Whether a connection is up now, waiting up to `ms` only before the first connection ever. */
  private async waitConnected(ms: number): Promise<boolean> {
    if (this.closed) throw new Error('event bus is closed');
    this.start();
    if (this.model) return true;
    if (this.everConnected) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
    return this.model !== null;
  }

  private async confirmChannel(): Promise<ConfirmChannel> {
    const model = await this.liveModel();
    if (!this.publishChannel) {
      const opening = model.createConfirmChannel().then((ch) => {
        ch.on('error', (err: Error) => this.logger.warn('event publish channel error', { err: err.message }));
        ch.on('close', () => {
          if (this.publishChannel === opening) this.publishChannel = null;
        });
        return ch;
      });
      opening.catch(() => {
        if (this.publishChannel === opening) this.publishChannel = null;
      });
      this.publishChannel = opening;
    }
    return this.publishChannel;
  }

  private async withChannel<T>(fn: (ch: Channel) => Promise<T>): Promise<T> {
    const ch = await (await this.liveModel()).createChannel();
    ch.on('error', () => undefined);
    try {
      return await fn(ch);
    } finally {
      await ch.close().catch(() => undefined);
    }
  }
}
