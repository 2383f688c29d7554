export * from './errors';
export * from './params';
export * from './pagination';
export * from './preconditions';
/** The fleet's logger (`@anvil/log`), re-exported for the services that build apps with this lib. */
export { createLogger } from '@anvil/log';
export type { Level, Logger } from '@anvil/log';
export * from './app';
export * from './url-guard';
export * from './rate-limit';
export * from './drain';
