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

/** A consumer's handler: resolve to ack; throw to have the event redelivered (then dead-lettered). */
export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface SubscribeOptions {
  /** Unacked messages in flight for this consumer (default 16). */
  prefetch?: number;
  /** Deliveries before the event goes to `<queue>.dlq` (default 5). */
  maxAttempts?: number;
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
