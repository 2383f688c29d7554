import request from 'supertest';
import { CONTEXT_HEADER, ContextSigner, ContextVerifier, generateContextKeys } from '@anvil/auth';
import { createServiceApp, createLogger } from '@anvil/http';
import { memoryDestination } from '@anvil/log';

describe('a service’s request logs (libs/http’s app)', () => {
  const keys = generateContextKeys();
  const signer = new ContextSigner(keys.privateKey);
  const out = memoryDestination();
  const app = createServiceApp({
    name: 'svc',
    verifier: new ContextVerifier(keys.publicKey, 'svc'),
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
    const context = signer.sign({ m: 'GET', p: `/api/v4${path}`, aud: 'svc', base: 'http://gw.test', user: null, scopes: [], auth: 'none' });
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
