import request from 'supertest';
import { CONTEXT_HEADER, ContextSigner, ContextVerifier, generateContextKeys } from '@anvil/auth';
import { startGateway } from '@anvil/gateway';
import { createServiceApp } from '@anvil/http';
import { freePort, TEST_INTERNAL_TOKEN, testKeys } from '@anvil/testing';
import { createLogger } from '../src';
import { collector } from './support/lines';

describe('a service’s request logs (libs/http’s app)', () => {
  const keys = generateContextKeys();
  const signer = new ContextSigner(keys.privateKey);
  const out = collector();
  const app = createServiceApp({
    name: 'svc',
    verifier: new ContextVerifier(keys.publicKey),
    logger: createLogger('svc', 'info', { destination: out.stream }),
    api: (r) => {
      r.get('/things', (req, res) => {
        req.log.info('listing things', { n: 2 });
        res.json([]);
      });
      r.get('/boom', () => {
        throw new Error('kaput');
      });
    },
  });
  const get = (path: string, rid?: string) => {
    const context = signer.sign({ m: 'GET', p: `/api/v4${path}`, base: 'http://gw.test', user: null, scopes: [], auth: 'none' });
    const r = request(app).get(`/api/v4${path}`).set(CONTEXT_HEADER, context);
    return rid ? r.set('X-Request-Id', rid) : r;
  };

  it('puts the request id on the handler’s lines', async () => {
    await get('/things', 'rid-handler-1').expect(200);
    expect(out.lines().filter((l) => l.msg === 'listing things')).toEqual([expect.objectContaining({ svc: 'svc', rid: 'rid-handler-1', n: 2 })]);
  });

  it('puts it on an unhandled error’s line, with the private_token of the logged path censored', async () => {
    await get('/boom?private_token=glpat-leak', 'rid-error-1').expect(500);
    const [line] = out.lines().filter((l) => l.rid === 'rid-error-1');
    expect(line).toMatchObject({ level: 'error', msg: 'unhandled error', path: '/api/v4/boom?private_token=[REDACTED]' });
    expect(out.text()).not.toContain('glpat-leak');
  });

  it('writes no request id when the request had none', async () => {
    await get('/things').expect(200);
    expect(out.lines().at(-1)).toEqual(expect.not.objectContaining({ rid: expect.anything() }));
  });
});

describe('the gateway’s request logs', () => {
  it('puts the request id on the access-log line and on the error line of the same request', async () => {
    const access = collector();
    const errors = collector();
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
