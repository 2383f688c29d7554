export * from './errors';
export * from './params';
export * from './pagination';
export * from './logger';
export * from './app';
