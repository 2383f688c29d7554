import pino, { type DestinationStream } from 'pino';
import { redact } from './redact';

/** `LOG_LEVEL`'s values: a line is written when its level is at or above the logger's. */
export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const LEVELS: readonly string[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** Extra fields of one line (or of every line of a child logger). */
export type Fields = Record<string, unknown>;

/** The fleet's logger: one JSON line per call, `log.info(msg, fields)` (see `createLogger`). */
export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** A logger that adds `fields` to each of its lines (e.g. the request id). */
  child(fields: Fields): Logger;
}

/** Where lines go: any writable stream, or a pino/sonic-boom destination. */
export type Destination = DestinationStream | NodeJS.WritableStream;

export interface LoggerOptions {
  /** Every line goes here (default: stdout, errors to stderr, written synchronously). */
  destination?: Destination;
}

/** A destination that holds lines back: `flushSync()` writes what is pending. */
export type BufferedDestination = ReturnType<typeof pino.destination>;

/** `level` when it is one of `LOG_LEVEL`'s values, else `info`. */
function levelOf(level: string | undefined): Level {
  return level && LEVELS.includes(level) ? (level as Level) : 'info';
}

/** Stdout for debug, info and warn; stderr for errors: each line is written once. */
function standardStreams(): DestinationStream {
  return pino.multistream(
    [
      { level: 'debug', stream: pino.destination({ dest: 1, sync: true }) },
      { level: 'error', stream: pino.destination({ dest: 2, sync: true }) },
    ],
    { dedupe: true },
  );
}

/**
 * A pino logger named `svc`: lines `{"level":"info","time":"<ISO 8601>","svc":"<name>",...fields,"msg":"..."}`,
 * a child's fields and each line's fields passed through `redact` (credentials censored).
 * `level` defaults to `LOG_LEVEL` (else `info`).
 */
function createPino(svc: string, level: string | undefined = process.env.LOG_LEVEL, opts: LoggerOptions = {}): pino.Logger {
  return pino(
    {
      level: levelOf(level),
      base: { svc },
      timestamp: pino.stdTimeFunctions.isoTime,
      // redaction by key, not pino's `redact` paths: its leading wildcards (`*.password`) cost tens of µs a line
      formatters: { level: (label) => ({ level: label }), log: redact },
    },
    (opts.destination as DestinationStream | undefined) ?? standardStreams(),
  );
}

/** The fleet's `Logger` over a pino logger: `log.info(msg, fields)` is pino's `info(fields, msg)`. */
function wrap(p: pino.Logger): Logger {
  return {
    debug: (msg, fields) => (fields ? p.debug(fields, msg) : p.debug(msg)),
    info: (msg, fields) => (fields ? p.info(fields, msg) : p.info(msg)),
    warn: (msg, fields) => (fields ? p.warn(fields, msg) : p.warn(msg)),
    error: (msg, fields) => (fields ? p.error(fields, msg) : p.error(msg)),
    // pino passes a child's fields through no formatter
    child: (fields) => wrap(p.child(redact(fields))),
  };
}

/** A `Logger` for `svc` (see `createPino` for its lines, levels and redaction). */
export function createLogger(svc: string, level?: string, opts: LoggerOptions = {}): Logger {
  return wrap(createPino(svc, level, opts));
}

/**
 * Stdout written asynchronously in batches (when 8 KiB are pending or every 100 ms), for logs on
 * the hot path; what is pending is written at process exit, or by `flushSync()` before it.
 */
export function bufferedStdout(): BufferedDestination {
  return pino.destination({ dest: 1, sync: false, minLength: 8192, periodicFlush: 100 });
}
