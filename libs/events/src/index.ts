export * from './types';
export * from './contracts';
