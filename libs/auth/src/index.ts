export * from './context';
export * from './tokens';
export * from './access';
export * from './identity-client';
export * from './transfer';
export * from './shared-answer';
export * from './sodium';
export * from './conan-jwt';
