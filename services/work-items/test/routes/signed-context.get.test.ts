import { CONTEXT_HEADER, ContextSigner } from '@anvil/auth';
import { actor, signFor, TEST_BASE_URL, testKeys } from '@anvil/testing';
import { small, Small } from '../support/small';

describe('GET /todos with a gateway context signed for another service or expired', () => {
  let s: Small;
  const user = actor('context-caller');
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  it('answers a context signed for work-items', async () => {
    await s.svc.raw().get('/api/v4/todos').set(CONTEXT_HEADER, signFor('get', '/api/v4/todos', { user }, 'work-items')).expect(200);
  });

  it('refuses a context signed for registry (401)', async () => {
    const header = signFor('get', '/api/v4/todos', { user }, 'registry');
    await s.svc.raw().get('/api/v4/todos').set(CONTEXT_HEADER, header).expect(401, { message: '401 Unauthorized - request did not come through the gateway' });
  });

  it('refuses an expired context with 503 and Retry-After: it waited too long here, the client may retry', async () => {
    const header = new ContextSigner(testKeys.privateKey).sign({ m: 'GET', p: '/api/v4/todos', aud: 'work-items', base: TEST_BASE_URL, user, scopes: ['api'], auth: 'pat', exp: Date.now() - 1 });
    const res = await s.svc.raw().get('/api/v4/todos').set(CONTEXT_HEADER, header).expect(503, { message: '503 Service Unavailable' });
    expect(res.headers['retry-after']).toBe('1');
  });

  it('refuses an expired context bound to another request with 401', async () => {
    const header = new ContextSigner(testKeys.privateKey).sign({ m: 'GET', p: '/api/v4/issues', aud: 'work-items', base: TEST_BASE_URL, user, scopes: ['api'], auth: 'pat', exp: Date.now() - 1 });
    await s.svc.raw().get('/api/v4/todos').set(CONTEXT_HEADER, header).expect(401, { message: '401 Unauthorized - request did not come through the gateway' });
  });

  it('refuses an expired context signed for another service with 401', async () => {
    const header = new ContextSigner(testKeys.privateKey).sign({ m: 'GET', p: '/api/v4/todos', aud: 'registry', base: TEST_BASE_URL, user, scopes: ['api'], auth: 'pat', exp: Date.now() - 1 });
    await s.svc.raw().get('/api/v4/todos').set(CONTEXT_HEADER, header).expect(401, { message: '401 Unauthorized - request did not come through the gateway' });
  });
});
