export * from './types';
export * from './keys';
export * from './local';
export { TEMP_ORPHAN_AGE_MS } from './local-temp';
export type { Receipt } from './local-receive';
export * from './s3';
export * from './create';
export * from './digest';
