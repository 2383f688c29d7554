export * from './service';
export { tcpOpen } from './global-setup';
