export * from './types';
export * from './keys';
export * from './local';
export type { Receipt } from './local-receive';
export * from './s3';
export * from './create';
export * from './digest';
