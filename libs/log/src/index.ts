export { bufferedStdout, createLogger } from './logger';
export type { BufferedDestination, Destination, Fields, Level, Logger, LoggerOptions } from './logger';
export { CENSOR, redact, scrubUrl } from './redact';
export { memoryDestination } from './memory';
