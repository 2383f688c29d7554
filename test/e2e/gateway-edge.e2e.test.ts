import http from 'node:http';
import request from 'supertest';
import { createLogger, memoryDestination } from '@anvil/log';
import type { RunningGateway } from '@anvil/gateway';
import { createUser, TestUser } from '../../gateway/test/support/fixtures';
import { deadPort, responseOf, startTestGateway } from '../../gateway/test/support/gateway';
import { CrossingProxy, startCrossingProxy } from './support/crossing-proxy';
import { Stack, startStack } from './support/gateway-stack';

let s: Stack;
let alice: TestUser;

beforeAll(async () => {
  s = await startStack();
  alice = await createUser(s.url, s.adminToken, 'alice', { api: ['api'] });
});

afterAll(async () => {
  await s?.stop();
});

describe('CORS on /api/v4 (GitLab: Rack::Cors for /api/*)', () => {
  test('a preflight is answered by the gateway: any origin, the methods, the asked headers, max age', async () => {
    const res = await request(s.url)
      .options('/api/v4/projects')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'private-token, content-type');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('private-token, content-type');
    expect(res.headers['access-control-max-age']).toBe('7200');
  });

  test('answers to requests with an Origin expose the pagination headers; refusals too', async () => {
    const ok = await request(s.url).get('/api/v4/projects?per_page=1').set('Origin', 'https://app.example.com').set('PRIVATE-TOKEN', s.adminToken);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    expect(ok.headers['access-control-expose-headers']).toBe(
      'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page, X-Gitlab-Blob-Id, X-Gitlab-Commit-Id, X-Gitlab-Content-Sha256, '
        + 'X-Gitlab-Encoding, X-Gitlab-File-Name, X-Gitlab-File-Path, X-Gitlab-Last-Commit-Id, X-Gitlab-Ref, X-Gitlab-Size, X-Request-Id, ETag',
    );
    const refused = await request(s.url).get('/api/v4/user').set('Origin', 'https://app.example.com').set('PRIVATE-TOKEN', 'glpat-nope');
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    // no Origin, no CORS headers
    const plain = await request(s.url).get('/api/v4/projects');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('tokens in the query', () => {
  test('never appear in Link headers or the access log', async () => {
    const access = memoryDestination();
    const gw = await startTestGateway({ identity: s.identity.url }, { LOG_LEVEL: 'info' }, { accessLogStream: access.stream as unknown as NodeJS.WritableStream, bus: s.identity.deps.bus, logger: createLogger('gateway', 'silent') });
    try {
      await request(gw.url).post('/api/v4/projects').set('PRIVATE-TOKEN', alice.tokens.api.token).send({ name: 'one' }).expect(201);
      await request(gw.url).post('/api/v4/projects').set('PRIVATE-TOKEN', alice.tokens.api.token).send({ name: 'two' }).expect(201);
      const token = alice.tokens.api.token;
      const res = await request(gw.url).get(`/api/v4/projects?owned=true&per_page=1&private_token=${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.link).toContain('rel="next"');
      expect(res.headers.link).toContain('owned=true');
      expect(res.headers.link).not.toContain(token);
      expect(res.headers.link).not.toContain('private_token');
      const viaAccessToken = await request(gw.url).get(`/api/v4/projects?owned=true&per_page=1&access_token=${token}`);
      expect(viaAccessToken.headers.link).not.toContain(token);
      await new Promise((r) => setTimeout(r, 50));
      gw.gateway.stop();
      expect(access.lines()).toContainEqual(expect.objectContaining({ msg: 'request', path: '/api/v4/projects', status: 200, user: alice.id }));
      expect(access.text()).not.toContain(token);
    } finally {
      await gw.stop();
    }
  });
});

describe('X-Forwarded-* as the trusted proxies say', () => {
  const forwarded = (gw: RunningGateway) =>
    request(gw.url).get('/api/v4/todos').set('X-Forwarded-For', '203.0.113.9').set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', 'gitlab.example.com');

  test('from a trusted proxy (loopback by default): kept, the peer appended', async () => {
    const res = await forwarded(s.gw);
    expect(res.body.headers).toMatchObject({ 'x-forwarded-for': '203.0.113.9, 127.0.0.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gitlab.example.com' });
  });

  test('from any other peer: replaced by what the gateway sees', async () => {
    const gw = await startTestGateway({ identity: s.identity.url, 'work-items': s.echoes['work-items'].url }, { TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' });
    try {
      const res = await forwarded(gw);
      expect(res.body.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(res.body.headers['x-forwarded-proto']).toBe('http');
      expect(res.body.headers['x-forwarded-host']).toBe(new URL(gw.url).host);
    } finally {
      await gw.stop();
    }
  });

  test('a TRUSTED_PROXIES entry that is no CIDR stops the gateway from starting', async () => {
    await expect(startTestGateway({}, { TRUSTED_PROXIES: '10.0.0.0/8,not-an-address' })).rejects.toThrow(/TRUSTED_PROXIES/);
  });
});

describe('request body limits', () => {
  test('a JSON body declared over MAX_REQUEST_BODY_BYTES: 413 before the body is read or anything looked up', async () => {
    const gw = await startTestGateway({ identity: s.identity.url, 'work-items': s.echoes['work-items'].url }, { MAX_REQUEST_BODY_BYTES: '1000' });
    try {
      const small = await request(gw.url).post('/api/v4/todos').set('Content-Type', 'application/json').send(JSON.stringify({ a: 'x'.repeat(900) }));
      expect(small.status).toBe(200);
      // 50 MB announced, 10 bytes sent: the answer comes without waiting for the rest
      const req = http.request(`${gw.url}/api/v4/todos`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': String(50 * 1024 * 1024), 'PRIVATE-TOKEN': alice.tokens.api.token } });
      req.on('error', () => undefined);
      req.write('{"a":"xxxx');
      const res = await responseOf(req);
      expect(res.statusCode).toBe(413);
      expect(res.headers.connection).toBe('close');
      const body = await new Promise<string>((r) => {
        let t = '';
        res.on('data', (c) => (t += c));
        res.on('end', () => r(t));
      });
      expect(JSON.parse(body)).toEqual({ message: '413 Request Entity Too Large' });
      req.destroy();
      const form = await request(gw.url).post('/api/v4/todos').type('form').send({ a: 'y'.repeat(2000) });
      expect(form.status).toBe(413);
      // an upload is not a JSON/form body: its own limits apply
      const upload = await request(gw.url).post('/api/v4/todos').set('Content-Type', 'application/octet-stream').send(Buffer.alloc(5000));
      expect(upload.status).toBe(200);
    } finally {
      await gw.stop();
    }
  });

  test('a chunked JSON body is counted as it streams: one byte over the limit gets 413, one under passes', async () => {
    const gw = await startTestGateway({ identity: s.identity.url, 'work-items': s.echoes['work-items'].url }, { MAX_REQUEST_BODY_BYTES: '1000' });
    /** POSTs `json` chunked (no Content-Length), in two writes; the status, headers and body of the answer. */
    const chunked = async (json: string) => {
      const req = http.request(`${gw.url}/api/v4/todos`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': alice.tokens.api.token } });
      req.on('error', () => undefined);
      const half = Math.floor(json.length / 2);
      req.write(json.slice(0, half));
      req.end(json.slice(half));
      expect(req.chunkedEncoding).toBe(true);
      const res = await responseOf(req);
      const text = await new Promise<string>((r) => {
        let t = '';
        res.on('data', (c) => (t += c));
        res.on('end', () => r(t));
        res.on('error', () => r(t));
      });
      return { status: res.statusCode, headers: res.headers, body: JSON.parse(text) };
    };
    /** A JSON object of exactly `n` bytes. */
    const ofBytes = (n: number) => JSON.stringify({ a: 'x'.repeat(n - '{"a":""}'.length) });
    try {
      const over = ofBytes(1001);
      expect(Buffer.byteLength(over)).toBe(1001);
      const cut = await chunked(over);
      expect(cut.status).toBe(413);
      expect(cut.body).toEqual({ message: '413 Request Entity Too Large' });
      expect(cut.headers.connection).toBe('close');
      // a chunked body still streaming is cut once past the limit, without waiting for its end
      const open = http.request(`${gw.url}/api/v4/todos`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': alice.tokens.api.token } });
      open.on('error', () => undefined);
      open.write(`{"a":"${'x'.repeat(64 * 1024)}`);
      const early = await responseOf(open);
      expect(early.statusCode).toBe(413);
      open.destroy();
      const under = ofBytes(1000);
      const passed = await chunked(under);
      expect(passed.status).toBe(200);
      expect(passed.body.body).toEqual(JSON.parse(under));
    } finally {
      await gw.stop();
    }
  });

  test('a chunked body past the limit once the service started answering: the connection is closed', async () => {
    // a service that answers at once, reading the body as it comes
    const upstream = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"partial":');
      req.resume();
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const gw = await startTestGateway({ identity: s.identity.url, 'work-items': `http://127.0.0.1:${(upstream.address() as { port: number }).port}` }, { MAX_REQUEST_BODY_BYTES: '1000' });
    try {
      const req = http.request(`${gw.url}/api/v4/todos`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': alice.tokens.api.token } });
      req.on('error', () => undefined);
      req.write('{"a":"');
      const res = await responseOf(req);
      expect(res.statusCode).toBe(200);
      const ended = new Promise<{ complete: boolean; text: string }>((r) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('close', () => r({ complete: res.complete, text }));
      });
      req.write('x'.repeat(2000));
      const { complete, text } = await ended;
      expect(complete).toBe(false);
      expect(text).toBe('{"partial":');
      req.destroy();
    } finally {
      await gw.stop();
      upstream.closeAllConnections();
      await new Promise((r) => upstream.close(r));
    }
  });

  test('10 MB by default', async () => {
    const res = await request(s.url).post('/api/v4/todos').set('Content-Type', 'application/json').send(JSON.stringify({ a: 'z'.repeat(10 * 1024 * 1024) }));
    expect(res.status).toBe(413);
  });
});

describe('readiness', () => {
  let toggle: CrossingProxy;
  let gw: RunningGateway;

  beforeAll(async () => {
    toggle = await startCrossingProxy();
    toggle.targets = [s.identity.url, s.identity.url];
    gw = await startTestGateway({ identity: toggle.url });
  });

  afterAll(async () => {
    await gw?.stop();
    await toggle?.stop();
  });

  test('503 while identity is down, 200 once it is back; liveness stays 200', async () => {
    const up = await request(gw.url).get('/-/readiness');
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'ok', identity_check: [{ status: 'ok' }] });
    const dead = `http://127.0.0.1:${await deadPort()}`;
    toggle.targets = [dead, dead];
    const down = await request(gw.url).get('/-/readiness');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'failed', identity_check: [{ status: 'failed' }] });
    expect((await request(gw.url).get('/-/liveness')).status).toBe(200);
    toggle.targets = [s.identity.url, s.identity.url];
    expect((await request(gw.url).get('/-/readiness')).status).toBe(200);
  });
});
