import { createBus } from './create-bus';
import { DeadLetter, EXCHANGE, ManagedEventBus, ReplayOptions, silentLogger } from './types';

export const EVENTS_USAGE = `usage:
  events:dead -- <queue>                              list the dead letters of <queue>
  events:replay -- <queue> [--limit N] [--id <id>]     move dead letters back to <queue>
environment: AMQP_URL (default amqp://guest:guest@127.0.0.1:5672), EVENTS_EXCHANGE`;

/** What the command writes to: standard output and standard error, a line at a time. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * The operator's dead-letter commands: `dead <queue>` lists `<queue>.dlq` (id, type, attempts,
 * error, failed_at, tab-separated, oldest first) and `replay <queue> [--limit N] [--id ID]` moves
 * dead letters back to `<queue>` as first deliveries. The bus is RabbitMQ at `AMQP_URL`: the
 * in-process bus keeps its dead letters inside the running process. Returns the exit code.
 */
export async function eventsCommand(argv: string[], env: Record<string, string | undefined>, io: CommandOutput): Promise<number> {
  const parsed = parseArgs(argv);
  if (typeof parsed === 'string') {
    io.err(parsed);
    io.err(EVENTS_USAGE);
    return 2;
  }
  const url = env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';
  if (!/^amqps?:/i.test(url)) {
    io.err(`AMQP_URL must name a RabbitMQ broker (amqp:// or amqps://); the in-process bus keeps its dead letters in the running process`);
    return 2;
  }
  const bus: ManagedEventBus = createBus(url, { logger: silentLogger, exchange: env.EVENTS_EXCHANGE || EXCHANGE });
  try {
    await bus.ready(10_000);
    if (parsed.command === 'dead') {
      const letters = await bus.deadLetters(parsed.queue);
      io.out(['id', 'type', 'attempts', 'error', 'failed_at'].join('\t'));
      for (const d of letters) io.out(row(d));
      io.err(`${letters.length} dead letter(s) in ${parsed.queue}`);
    } else {
      const moved = await bus.replayDeadLetters(parsed.queue, parsed.replay);
      for (const d of moved) io.out(row(d));
      io.err(`replayed ${moved.length} dead letter(s) to ${parsed.queue}`);
    }
    return 0;
  } catch (err) {
    io.err(err instanceof Error ? err.message : String(err));
    return 1;
  } finally {
    await bus.close();
  }
}

function row(d: DeadLetter): string {
  return [d.event.id, d.event.type, String(d.attempts), d.error.replace(/\s+/g, ' '), d.failed_at].join('\t');
}

type Parsed = { command: 'dead' | 'replay'; queue: string; replay: ReplayOptions };

function parseArgs(argv: string[]): Parsed | string {
  const [command, ...rest] = argv;
  if (command !== 'dead' && command !== 'replay') return `unknown command: ${command ?? '(none)'}`;
  const replay: ReplayOptions = {};
  let queue: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (command === 'replay' && (a === '--limit' || a === '--id')) {
      const v = rest[++i];
      if (v === undefined) return `${a} needs a value`;
      if (a === '--id') replay.id = v;
      else if (/^[1-9][0-9]*$/.test(v)) replay.limit = Number(v);
      else return `--limit must be a positive integer`;
    } else if (a.startsWith('-') || queue !== undefined) {
      return `unexpected argument: ${a}`;
    } else {
      queue = a;
    }
  }
  if (!queue) return 'the queue name is required';
  return { command, queue, replay };
}
