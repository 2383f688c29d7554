import { AmqpBus, AmqpBusOptions } from './amqp-bus';
import { InMemoryBus } from './memory-bus';
import { ManagedEventBus } from './types';

/** Options of `createBus`; the AMQP ones are ignored for `memory://`. */
export type CreateBusOptions = AmqpBusOptions;

/**
 * The bus named by a URL: `memory://` → an `InMemoryBus` (one process); `amqp://` or `amqps://`
 * → an `AmqpBus`. Never does I/O itself: the AMQP bus connects on first use and keeps
 * reconnecting; `await bus.ready()` to require the broker at boot.
 */
export function createBus(url: string, opts: CreateBusOptions = {}): ManagedEventBus {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'memory') return new InMemoryBus();
  if (scheme === 'amqp' || scheme === 'amqps') return new AmqpBus(url, opts);
  throw new Error(`unsupported event bus URL (expected memory://, amqp:// or amqps://): ${scheme ?? 'no scheme'}`);
}
