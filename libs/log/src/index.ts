export { bufferedStdout, createLogger, levelOf } from './logger';
export type { BufferedDestination, Destination, Fields, Level, Logger, LoggerOptions } from './logger';
export { CENSOR, REDACT_PATHS, scrubUrl } from './redact';
