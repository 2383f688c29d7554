export * from './service';
export * from './fleet';
export { tcpOpen } from './global-setup';
export * from './basics';
export * from './seeded';
export * from './slapd';
export * from './private-servers';
export * from './pgbouncer';
