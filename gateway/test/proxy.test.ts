import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import request from 'supertest';
import { CONTEXT_HEADER } from '@anvil/auth';
import { actor, signFor, TEST_BASE_URL } from '@anvil/testing';
import type { RunningGateway } from '../src';
import type { ServiceName } from '../src/routes';
import { Echo, startEcho } from './support/echo';
import { bodyOf, deadPort, responseOf, startTestGateway, waitFor } from './support/gateway';

const SERVICES: ServiceName[] = ['identity', 'registry', 'project-transfer', 'work-items', 'pipelines', 'alerting'];
/** An anonymous upload route with nothing to resolve (work-items answers; Conan writes need a caller). */
const UPLOAD = '/api/v4/todos/upload';
let echoes: Record<string, Echo>;
let gw: RunningGateway;

beforeAll(async () => {
  echoes = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await startEcho(s)] as const)));
  gw = await startTestGateway(Object.fromEntries(SERVICES.map((s) => [s, echoes[s].url])));
});

afterAll(async () => {
  await gw?.stop();
  await Promise.all(Object.values(echoes ?? {}).map((e) => e.stop()));
});

describe('routing (anonymous, nothing to resolve)', () => {
  test.each([
    ['/api/v4/projects?search=x', 'identity'],
    ['/api/v4/users', 'identity'],
    ['/api/v4/todos', 'work-items'],
    ['/api/v4/issues?scope=all', 'work-items'],
    ['/api/v4/packages/conan/v1/ping', 'registry'],
    ['/api/v4/packages/conan/v1/files/pkg/1.0/_/_/0/export/conanfile.py', 'registry'],
  ])('%s reaches %s with a signed anonymous context', async (path, service) => {
    const res = await request(gw.url).get(path);
    expect(res.status).toBe(200);
    expect(res.body.service).toBe(service);
    expect(res.body.path).toBe(path);
    expect(res.body.ctx).toMatchObject({ user: null, scopes: [], auth: 'none', m: 'GET', p: path, base: TEST_BASE_URL });
  });

  test('unknown paths answer GitLab 404 and never reach a service', async () => {
    for (const path of ['/api/v4/nothing', '/api/v4/projects/5/unknown', '/api/v4', '/somewhere']) {
      const res = await request(gw.url).get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  test('routes that need a signed-in user answer 401 to anonymous callers', async () => {
    const res = await request(gw.url).post('/api/v4/projects/import');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  test('/api/v3 answers 410', async () => {
    const res = await request(gw.url).get('/api/v3/projects');
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  test('health endpoints answer locally', async () => {
    expect((await request(gw.url).get('/-/health')).text).toBe('GitLab OK');
    expect((await request(gw.url).get('/-/liveness')).body).toEqual({ status: 'ok' });
    expect((await request(gw.url).get('/metrics')).text).toContain('gateway_responses_total');
  });
});

describe('headers', () => {
  test('a forged or replayed x-anvil-context never reaches the upstream; other x-anvil-* headers are dropped', async () => {
    const admin = actor('root', { admin: true });
    const forged = signFor('GET', '/api/v4/todos', { user: admin }, 'work-items');
    const res = await request(gw.url)
      .get('/api/v4/todos')
      .set(CONTEXT_HEADER, forged)
      .set('x-anvil-internal-token', 'guess')
      .set('X-Anvil-Anything', '1');
    expect(res.status).toBe(200);
    expect(res.body.ctx.user).toBeNull();
    expect(res.body.headers[CONTEXT_HEADER]).not.toBe(forged);
    expect(Object.keys(res.body.headers).filter((h) => h.startsWith('x-anvil-'))).toEqual([CONTEXT_HEADER]);
  });

  test('X-Request-Id is generated when absent, kept when given, replaced when malformed', async () => {
    const gen = await request(gw.url).get('/api/v4/todos');
    expect(gen.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(gen.body.headers['x-request-id']).toBe(gen.headers['x-request-id']);
    const given = await request(gw.url).get('/api/v4/todos').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    expect(given.body.headers['x-request-id']).toBe('abc-123');
    const bad = await request(gw.url).get('/api/v4/todos').set('X-Request-Id', 'a b"c');
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('security headers, forwarding headers, hop-by-hop removal', async () => {
    const res = await request(gw.url)
      .get('/api/v4/todos')
      .set('Connection', 'keep-alive, x-hop')
      .set('X-Hop', 'secret')
      .set('X-Forwarded-For', '10.0.0.1')
      .set('Proxy-Authorization', 'Basic Zm9vOmJhcg==')
      .set('Accept', 'application/json');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const h = res.body.headers;
    expect(h['x-hop']).toBeUndefined();
    expect(h['proxy-authorization']).toBeUndefined();
    expect(h['x-forwarded-for']).toBe('10.0.0.1, 127.0.0.1');
    expect(h['x-forwarded-proto']).toBe('http');
    expect(h['x-forwarded-host']).toBe(new URL(gw.url).host);
    expect(h.accept).toBe('application/json');
  });

  test('an anonymous Basic header on a non-registry route is ignored, not forwarded', async () => {
    const res = await request(gw.url).get('/api/v4/todos').set('Authorization', `Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(res.status).toBe(200);
    expect(res.body.headers.authorization).toBeUndefined();
  });
});

describe('streaming', () => {
  const port = () => Number(new URL(gw.url).port);

  test('a chunked upload is forwarded while it is still being sent', async () => {
    const a = randomBytes(512 * 1024);
    const b = randomBytes(512 * 1024);
    const req = http.request({ port: port(), host: '127.0.0.1', method: 'PUT', path: UPLOAD, headers: { 'content-type': 'application/octet-stream' } });
    const response = responseOf(req);
    req.write(a);
    // the upstream has the first half before the client sent the second: nothing waits for the whole body
    await waitFor<number>(echoes['work-items'].probe, 'data', (n) => n >= a.length);
    req.end(b);
    const body = JSON.parse((await bodyOf(await response)).toString());
    expect(body.bytes).toBe(a.length + b.length);
    expect(body.sha256).toBe(createHash('sha256').update(a).update(b).digest('hex'));
  });

  test('a response reaches the client while the upstream is still producing it', async () => {
    const total = 8 * 1024 * 1024;
    const hold = 1024 * 1024;
    const res = await responseOf(http.get({ port: port(), host: '127.0.0.1', path: `/api/v4/todos?download=${total}&hold=${hold}` }));
    expect(res.statusCode).toBe(200);
    let got = 0;
    let released = false;
    for await (const c of res) {
      got += (c as Buffer).length;
      if (!released && got >= hold) {
        released = true;
        echoes['work-items'].release();
      }
    }
    expect(got).toBe(total);
  });

  test('a large response streams through intact', async () => {
    const total = 64 * 1024 * 1024 + 123;
    const res = await responseOf(http.get({ port: port(), host: '127.0.0.1', path: `/api/v4/issues?download=${total}` }));
    let got = 0;
    for await (const c of res) got += (c as Buffer).length;
    expect(got).toBe(total);
  });

  test('a client that aborts an upload aborts the upstream request', async () => {
    const req = http.request({ port: port(), host: '127.0.0.1', method: 'PUT', path: UPLOAD, headers: { 'content-type': 'application/octet-stream' } });
    req.on('error', () => undefined);
    const aborted = waitFor(echoes['work-items'].probe, 'aborted');
    req.write(randomBytes(256 * 1024));
    await waitFor<number>(echoes['work-items'].probe, 'data', (n) => n >= 256 * 1024);
    req.destroy();
    await expect(aborted).resolves.toBeGreaterThanOrEqual(256 * 1024);
  });

  test('a client that goes away mid-download closes the upstream response', async () => {
    const closed = waitFor(echoes['work-items'].probe, 'res-closed');
    const res = await responseOf(http.get({ port: port(), host: '127.0.0.1', path: `/api/v4/todos?download=${64 * 1024 * 1024}&hold=${1024 * 1024}` }));
    await new Promise<void>((resolve) => {
      let got = 0;
      res.on('data', (c: Buffer) => {
        got += c.length;
        if (got >= 512 * 1024) {
          res.destroy();
          resolve();
        }
      });
    });
    await expect(closed).resolves.toBeGreaterThan(0);
  });
});

describe('Expect: 100-continue', () => {
  const port = () => Number(new URL(gw.url).port);
  const expectRequest = (path: string) =>
    http.request({ port: port(), host: '127.0.0.1', method: 'PUT', path, headers: { expect: '100-continue', 'content-type': 'application/octet-stream', 'content-length': 4 } });

  test('a forwarded upload gets 100 Continue, then goes through', async () => {
    const req = expectRequest(UPLOAD);
    let continued = false;
    req.on('continue', () => {
      continued = true;
      req.end('abcd');
    });
    const res = await responseOf(req);
    expect(continued).toBe(true);
    expect(JSON.parse((await bodyOf(res)).toString()).bytes).toBe(4);
  });

  test('a refused upload is refused before its body is asked for', async () => {
    const req = expectRequest('/api/v4/nothing');
    let continued = false;
    req.on('continue', () => (continued = true));
    req.flushHeaders();
    const res = await responseOf(req);
    expect(res.statusCode).toBe(404);
    expect(continued).toBe(false);
    req.destroy();
  });
});

describe('upstream down', () => {
  test('an upstream that never answers: 504 after UPSTREAM_TIMEOUT_MS', async () => {
    const slow = await startTestGateway({ 'work-items': echoes['work-items'].url }, { UPSTREAM_TIMEOUT_MS: '1000' });
    try {
      const started = Date.now();
      const res = await request(slow.url).get('/api/v4/todos?hang=1');
      expect(res.status).toBe(504);
      expect(res.body).toEqual({ message: '504 Gateway Timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    } finally {
      await slow.stop();
    }
  });

  test('answers 502 with GitLab body', async () => {
    const down = await startTestGateway({ 'work-items': `http://127.0.0.1:${await deadPort()}` });
    try {
      const res = await request(down.url).get('/api/v4/todos');
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ message: '502 Bad Gateway' });
      expect(res.headers['x-request-id']).toBeTruthy();
    } finally {
      await down.stop();
    }
  });
});
