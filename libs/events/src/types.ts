/** The envelope of every event on `anvil.events` (routing key = `type`). */
export interface EventEnvelope<T = unknown> {
  id: string;
  /** `<service>.<aggregate>.<past-tense verb>`, e.g. `identity.project.created`. */
  type: string;
  occurred_at: string;
  producer: string;
  version: number;
  data: T;
}

/** What a handler learns about one delivery of an event. */
export interface Delivery {
  /** The queue the event was delivered from. */
  queue: string;
  /** 1 for the first delivery; incremented each time a throwing handler gets the event again. */
  attempt: number;
  /** True when the event may have been seen before (a retry, or a consumer died before acking). */
  redelivered: boolean;
}

/** A consumer's handler: resolve to ack; throw to have the event redelivered (then dead-lettered). */
export type EventHandler = (event: EventEnvelope, delivery: Delivery) => Promise<void>;

export interface SubscribeOptions {
  /** Unacked messages in flight for this consumer (default 16). */
  prefetch?: number;
  /** Deliveries before the event goes to `<queue>.dlq` (default 5). */
  maxAttempts?: number;
  /**
   * Base delay before a failed event is redelivered; after attempt n it waits n × this (default
   * 100 ms) without holding a prefetch slot: other events are handled meanwhile.
   */
  retryDelayMs?: number;
  /**
   * A queue for this process alone (e.g. a replica's cache invalidation): not durable, deleted by
   * the broker when its consumer goes, no dead-letter queue. Every replica then hears every event.
   */
  transient?: boolean;
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * One interface, two adapters (RabbitMQ and in-process) with the same semantics: a topic exchange
 * `anvil.events`; durable queue per consumer bound by patterns (`*` one word, `#` zero or more);
 * at-least-once delivery, ack after the handler resolves, retry then dead-letter.
 */
export interface EventBus {
  /** Publishes one event; resolves when the broker has confirmed it. */
  publish(event: EventEnvelope): Promise<void>;
  subscribe(queue: string, patterns: string[], handler: EventHandler, opts?: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}

export const EXCHANGE = 'anvil.events';

/** An event that exhausted its attempts and now sits in `<queue>.dlq`. */
export interface DeadLetter {
  queue: string;
  event: EventEnvelope;
  /** How many times a handler was given the event. */
  attempts: number;
  /** The last handler error's message. */
  error: string;
  failed_at: string;
}

/** What both adapters offer beyond `EventBus`: readiness, dead-letter inspection, queue removal. */
export interface ManagedEventBus extends EventBus {
  /** Resolves once the bus can publish (the broker connection is up), rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  /** The events in `<queue>.dlq`, oldest first, left in place. */
  deadLetters(queue: string): Promise<DeadLetter[]>;
  /**
   * Moves dead letters of `queue` back to it, oldest first, as first deliveries (the error headers
   * dropped): at most `limit`, only the event `id` when given. Returns the dead letters moved.
   */
  replayDeadLetters(queue: string, opts?: ReplayOptions): Promise<DeadLetter[]>;
  /** How many events sit in `<queue>.dlq`. */
  deadLetterCount(queue: string): Promise<number>;
  /** Closes this bus's subscriptions on `queue`, then deletes `queue`, its retry queues and `<queue>.dlq` (tests, decommissioning). */
  deleteQueue(queue: string): Promise<void>;
}

/** Which dead letters `replayDeadLetters` moves. */
export interface ReplayOptions {
  /** At most this many (default all). */
  limit?: number;
  /** Only the event with this id. */
  id?: string;
}

/** The logging the bus and relay need; `@anvil/http`'s `Logger` fits. */
export interface EventLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  info?(msg: string, fields?: Record<string, unknown>): void;
  debug?(msg: string, fields?: Record<string, unknown>): void;
}

/** Default logger: one JSON line on stderr for warnings and errors. */
export const stderrLogger: EventLogger = {
  warn: (msg, fields) => process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level: 'warn', svc: 'events', msg, ...fields }) + '\n'),
  error: (msg, fields) => process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level: 'error', svc: 'events', msg, ...fields }) + '\n'),
};

/** A logger that drops everything (tests). */
export const silentLogger: EventLogger = { warn: () => undefined, error: () => undefined };

/** Dead-letter queue name of a consumer queue. */
export function deadLetterQueue(queue: string): string {
  return `${queue}.dlq`;
}

/** Retry queue of a consumer queue for one delay: failed events wait there, then return to `queue`. */
export function retryQueue(queue: string, delayMs: number): string {
  return `${queue}.retry.${delayMs}ms`;
}

/** The distinct retry delays of a subscription: attempt n (1 … maxAttempts − 1) waits n × retryDelayMs. */
export function retryDelays(opts: Pick<Required<SubscribeOptions>, 'maxAttempts' | 'retryDelayMs'>): number[] {
  const delays = new Set<number>();
  for (let n = 1; n < opts.maxAttempts; n++) delays.add(n * opts.retryDelayMs);
  return [...delays];
}

/** Normalised subscription options with their defaults. */
export function subscribeDefaults(opts: SubscribeOptions = {}): Required<SubscribeOptions> {
  return {
    prefetch: Math.max(1, opts.prefetch ?? 16),
    maxAttempts: Math.max(1, opts.maxAttempts ?? 5),
    retryDelayMs: Math.max(0, Math.round(opts.retryDelayMs ?? 100)),
    transient: opts.transient ?? false,
  };
}

/** The message of any thrown value. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
