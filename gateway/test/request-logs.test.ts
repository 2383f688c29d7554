import { createLogger } from '@anvil/http';
import { memoryDestination } from '@anvil/log';
import { freePort, TEST_INTERNAL_TOKEN, testKeys } from '@anvil/testing';
import { startGateway } from '../src';

describe('the gateway’s request logs', () => {
  it('puts the request id on the access-log line and on the error line of the same request', async () => {
    const access = memoryDestination();
    const errors = memoryDestination();
    const gw = await startGateway({
      port: 0,
      env: {
        GATEWAY_PRIVATE_KEY: testKeys.privateKey, INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN, CONAN_JWT_SECRET: 'test-conan-secret',
        // nothing listens there: authenticating the token fails, a logged 502
        IDENTITY_URL: `http://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'info', ACCELERATED_TRANSFERS: 'false',
      },
      accessLogStream: access.stream as unknown as NodeJS.WritableStream,
      logger: createLogger('gateway', 'info', { destination: errors.stream }),
    });
    try {
      const res = await fetch(`${gw.url}/api/v4/projects/1?private_token=glpat-gw-leak`, { headers: { 'X-Request-Id': 'rid-gw-1' } });
      expect(res.status).toBe(502);
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
      gw.gateway.stop();
      expect(errors.lines()).toContainEqual(expect.objectContaining({ level: 'error', svc: 'gateway', msg: 'gateway error', rid: 'rid-gw-1', path: '/api/v4/projects/1' }));
      expect(access.lines()).toContainEqual(expect.objectContaining({ level: 'info', svc: 'gateway', msg: 'request', method: 'GET', path: '/api/v4/projects/1', status: 502, rid: 'rid-gw-1' }));
      expect(access.text() + errors.text()).not.toContain('glpat-gw-leak');
    } finally {
      await gw.stop();
    }
  });
});
