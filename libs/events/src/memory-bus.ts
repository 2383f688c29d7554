import { assertEventType, assertPattern, topicMatches } from './topic';
import {
  DeadLetter,
  EventEnvelope,
  EventHandler,
  ManagedEventBus,
  ReplayOptions,
  SubscribeOptions,
  Subscription,
  errorMessage,
  subscribeDefaults,
} from './types';

interface Pending {
  event: EventEnvelope;
  attempt: number;
}

interface Consumer {
  handler: EventHandler;
  opts: Required<SubscribeOptions>;
  inFlight: Set<Promise<void>>;
  closed: boolean;
}

interface MemoryQueue {
  name: string;
  patterns: Set<string>;
  ready: Pending[];
  consumers: Consumer[];
  /** Round-robin cursor over `consumers`. */
  next: number;
  scheduled: boolean;
  dead: DeadLetter[];
}

/**
 * The in-process adapter: a topic exchange with named queues that outlive their subscriptions
 * (for the bus's lifetime). Subscribers on one queue compete (round-robin); delivery is always
 * asynchronous; an event is acked when its handler resolves; a throw frees the handler's slot and
 * redelivers the event after `attempt × retryDelayMs` (other events are handled meanwhile), and
 * after `maxAttempts` it moves to `deadLetters(queue)`, from which `replayDeadLetters` moves it
 * back. At most `prefetch` handlers run at once per subscription. Unroutable events are dropped,
 * like RabbitMQ.
 */
export class InMemoryBus implements ManagedEventBus {
  private readonly queues = new Map<string, MemoryQueue>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** Delivers a copy of `event` to every queue with a matching binding. Never runs handlers inline. */
  async publish(event: EventEnvelope): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    assertEventType(event.type);
    const body = JSON.stringify(event);
    for (const q of this.queues.values()) {
      if (![...q.patterns].some((p) => topicMatches(p, event.type))) continue;
      q.ready.push({ event: JSON.parse(body) as EventEnvelope, attempt: 1 });
      this.schedule(q);
    }
  }

  /** Binds `queue` (created on first use) to `patterns` and adds a competing consumer to it. */
  async subscribe(queue: string, patterns: string[], handler: EventHandler, opts?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('event bus is closed');
    patterns.forEach(assertPattern);
    const q = this.queue(queue);
    patterns.forEach((p) => q.patterns.add(p));
    const consumer: Consumer = { handler, opts: subscribeDefaults(opts), inFlight: new Set(), closed: false };
    q.consumers.push(consumer);
    this.schedule(q);
    return { close: () => this.removeConsumer(q, consumer) };
  }

  /** Resolves at once: the in-process bus is always ready (until closed). */
  async ready(): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
  }

  /** Dead letters of `queue`, oldest first. */
  async deadLetters(queue: string): Promise<DeadLetter[]> {
    return [...(this.queues.get(queue)?.dead ?? [])];
  }

  /** How many events sit in the queue's dead letters. */
  async deadLetterCount(queue: string): Promise<number> {
    return this.queues.get(queue)?.dead.length ?? 0;
  }

  /** Moves dead letters back to their queue as first deliveries, oldest first. */
  async replayDeadLetters(queue: string, opts: ReplayOptions = {}): Promise<DeadLetter[]> {
    const q = this.queues.get(queue);
    if (!q) throw new Error(`queue ${queue} does not exist`);
    const limit = opts.limit ?? Infinity;
    const moved: DeadLetter[] = [];
    q.dead = q.dead.filter((d) => {
      if (moved.length >= limit || (opts.id !== undefined && d.event.id !== opts.id)) return true;
      moved.push(d);
      return false;
    });
    for (const d of moved) q.ready.push({ event: d.event, attempt: 1 });
    if (moved.length) this.schedule(q);
    return moved;
  }

  /** Stops the queue's consumers (waiting for their handlers) and forgets the queue and its dead letters. */
  async deleteQueue(queue: string): Promise<void> {
    const q = this.queues.get(queue);
    if (!q) return;
    this.queues.delete(queue);
    await Promise.all([...q.consumers].map((c) => this.removeConsumer(q, c)));
  }

  /** Stops all deliveries and waits for the handlers in flight; pending retries are discarded. */
  async close(): Promise<void> {
    this.closed = true;
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    for (const q of this.queues.values()) await Promise.all([...q.consumers].map((c) => this.removeConsumer(q, c)));
  }

  private queue(name: string): MemoryQueue {
    let q = this.queues.get(name);
    if (!q) {
      q = { name, patterns: new Set(), ready: [], consumers: [], next: 0, scheduled: false, dead: [] };
      this.queues.set(name, q);
    }
    return q;
  }

  private async removeConsumer(q: MemoryQueue, c: Consumer): Promise<void> {
    c.closed = true;
    q.consumers = q.consumers.filter((x) => x !== c);
    await Promise.allSettled([...c.inFlight]);
  }

  private schedule(q: MemoryQueue): void {
    if (q.scheduled || this.closed) return;
    q.scheduled = true;
    setImmediate(() => {
      q.scheduled = false;
      this.pump(q);
    });
  }

  /** Hands ready events to consumers with free prefetch slots, round-robin. */
  private pump(q: MemoryQueue): void {
    while (q.ready.length && !this.closed) {
      const consumer = this.pickConsumer(q);
      if (!consumer) return;
      this.deliver(q, consumer, q.ready.shift() as Pending);
    }
  }

  private pickConsumer(q: MemoryQueue): Consumer | undefined {
    for (let i = 0; i < q.consumers.length; i++) {
      const c = q.consumers[(q.next + i) % q.consumers.length];
      if (!c.closed && c.inFlight.size < c.opts.prefetch) {
        q.next = (q.next + i + 1) % q.consumers.length;
        return c;
      }
    }
    return undefined;
  }

  private deliver(q: MemoryQueue, c: Consumer, msg: Pending): void {
    const delivery = { queue: q.name, attempt: msg.attempt, redelivered: msg.attempt > 1 };
    const run = Promise.resolve()
      .then(() => c.handler(msg.event, delivery))
      .catch((err: unknown) => this.failed(q, c, msg, err))
      .finally(() => {
        c.inFlight.delete(run);
        this.schedule(q);
      });
    c.inFlight.add(run);
  }

  private failed(q: MemoryQueue, c: Consumer, msg: Pending, err: unknown): void {
    if (msg.attempt >= c.opts.maxAttempts) {
      q.dead.push({ queue: q.name, event: msg.event, attempts: msg.attempt, error: errorMessage(err), failed_at: new Date().toISOString() });
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      q.ready.push({ event: msg.event, attempt: msg.attempt + 1 });
      this.schedule(q);
    }, msg.attempt * c.opts.retryDelayMs);
    this.timers.add(timer);
  }
}
