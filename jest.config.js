/** One jest run for the whole tree: one globalSetup (database and broker detection), swc transform. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  testMatch: ['<rootDir>/**/test/**/*.test.ts'],
  // the real-Conan-client test runs only when pointed at a conan-io/conan checkout (see README)
  testPathIgnorePatterns: ['/node_modules/', '/.data/', ...(process.env.CONAN2_SRC || process.env.CONAN1_SRC ? [] : ['/test/e2e/registry-conan-client\\.e2e\\.test\\.ts$'])],
  modulePathIgnorePatterns: ['<rootDir>/.data/'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: process.env.JEST_WORKERS || 2,
};
