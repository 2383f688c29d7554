import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { CONTEXT_HEADER, ContextSigner, ContextVerifier, generateContextKeys, INTERNAL_TOKEN_HEADER } from '@anvil/auth';
import {
  ConflictError, createServiceApp, ctx, NotFoundError, NotModifiedError, p, paginateArray, params, ValidationError,
} from '../src';

const keys = generateContextKeys();
const signer = new ContextSigner(keys.privateKey);
const sign = (m: string, path: string) =>
  signer.sign({ rid: 'r', m, p: path, aud: 'svc', base: 'http://gw.test', user: { id: 7, username: 'u', name: 'U', admin: false, state: 'active' }, scopes: ['api'], auth: 'pat' });

const app = createServiceApp({
  name: 'test',
  verifier: new ContextVerifier(keys.publicKey, 'svc'),
  internalToken: 'secret-token',
  logger: { debug() {}, info() {}, warn() {}, error() {}, child() { return this; } },
  streamBody: (req) => req.method === 'PUT' && req.originalUrl.startsWith('/api/v4/files/'),
  readiness: async () => true,
  api: (r) => {
    r.get('/whoami', (req, res) => {
      res.json({ user: ctx(req).user?.username });
    });
    r.post('/things', (req, res) => {
      const input = params({ title: p.string().required(), labels: p.list() }).parse(req);
      res.status(201).json(input);
    });
    r.delete('/things/:id', (req, res) => {
      res.json({ id: req.params.id, body: req.body });
    });
    r.put('/files/:name', async (req, res) => {
      let n = 0;
      for await (const chunk of req) n += (chunk as Buffer).length;
      res.json({ parsed: req.body, streamed: n });
    });
    r.all('/echo', (req, res) => {
      res.json({ body: req.body });
    });
    r.get('/missing', () => {
      throw new NotFoundError('Project');
    });
    r.post('/dupe', () => {
      throw new ConflictError('Email has already been taken');
    });
    r.post('/invalid', () => {
      throw new ValidationError({ email: ['is invalid'] });
    });
    r.post('/subscribe', () => {
      throw new NotModifiedError();
    });
    r.get('/boom', () => {
      throw new Error('kaput');
    });
    r.get('/list', (req, res) => {
      const page = paginateArray(req, Array.from({ length: 45 }, (_, i) => i + 1));
      res.set(page.headers).json(page.items);
    });
  },
  internal: (r) => {
    r.get('/ping', (_req, res) => {
      res.json({ ok: true });
    });
  },
});

const signed = (method: 'get' | 'post' | 'delete', path: string) => request(app)[method](path).set(CONTEXT_HEADER, sign(method.toUpperCase(), path));

describe('createServiceApp', () => {
  it('serves health, readiness, liveness and metrics without a context', async () => {
    await request(app).get('/-/health').expect(200);
    await request(app).get('/-/liveness').expect(200, { status: 'ok' });
    await request(app).get('/-/readiness').expect(200);
    const m = await request(app).get('/metrics').expect(200);
    expect(m.text).toContain('http_requests_total');
  });

  it('refuses /api/v4 without the gateway context', async () => {
    const r = await request(app).get('/api/v4/whoami').expect(401);
    expect(r.body.message).toMatch(/^401 Unauthorized/);
  });

  it('refuses a context signed for another path', async () => {
    const r = await request(app).get('/api/v4/whoami').set(CONTEXT_HEADER, sign('GET', '/api/v4/other')).expect(401);
    expect(r.body).toEqual({ message: '401 Unauthorized - request did not come through the gateway' });
  });

  it('passes the verified context to handlers and sets security headers', async () => {
    const r = await signed('get', '/api/v4/whoami').set('x-request-id', 'abc').expect(200, { user: 'u' });
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-request-id']).toBe('abc');
    expect(r.headers['content-type']).toBe('application/json');
  });

  it('validates params with Grape bodies', async () => {
    await signed('post', '/api/v4/things').send({}).expect(400, { error: 'title is missing' });
    await signed('post', '/api/v4/things').send({ title: 't', labels: 'a,b' }).expect(201, { title: 't', labels: ['a', 'b'] });
  });

  it('accepts python-gitlab DELETE with a JSON content type and no body', async () => {
    await signed('delete', '/api/v4/things/3').set('content-type', 'application/json').expect(200, { id: '3', body: {} });
  });

  it('accepts gitbeaker DELETE with body {}', async () => {
    await signed('delete', '/api/v4/things/3').set('content-type', 'application/json').send('{}').expect(200, { id: '3', body: {} });
  });

  it('leaves a streamed upload unread by the parsers, whatever its content type', async () => {
    const put = (path: string) => request(app).put(path).set(CONTEXT_HEADER, sign('PUT', path)).set('content-type', 'application/x-www-form-urlencoded');
    await put('/api/v4/files/a').send('a=1&b=2').expect(200, { parsed: {}, streamed: 7 });
  });

  describe('body parsing', () => {
    const echo = (method: 'get' | 'post' | 'delete') => signed(method, '/api/v4/echo');

    it('gives {} to a request without a body', async () => {
      await echo('get').expect(200, { body: {} });
      await echo('post').expect(200, { body: {} });
      await echo('post').set('content-type', 'application/json').set('content-length', '0').expect(200, { body: {} });
    });

    it('parses JSON and form bodies, also on a GET or DELETE', async () => {
      await echo('post').send({ a: [1, 2] }).expect(200, { body: { a: [1, 2] } });
      await echo('post').type('form').send('a[b]=1&c=2').expect(200, { body: { a: { b: '1' }, c: '2' } });
      await echo('get').set('content-type', 'application/json').send('{"q":1}').expect(200, { body: { q: 1 } });
      await echo('delete').set('content-type', 'application/vnd.api+json').send('"x"').expect(200, { body: 'x' });
    });

    it('parses a chunked JSON body (no Content-Length)', async () => {
      const server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      try {
        const { port } = server.address() as AddressInfo;
        const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v4/echo', headers: { [CONTEXT_HEADER]: sign('POST', '/api/v4/echo'), 'content-type': 'application/json' } }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          });
          req.on('error', reject);
          req.write('{"a":');
          req.end('"chunked"}');
        });
        expect(answer).toEqual({ status: 200, text: '{"body":{"a":"chunked"}}' });
      } finally {
        await new Promise((r) => server.close(r));
      }
    });

    it.each([
      ['a NUL in a JSON value', 'application/json', '{"title":"a\\u0000b"}'],
      ['a NUL in a JSON key', 'application/json', '{"a\\u0000":1}'],
      ['a NUL deep in a JSON array', 'application/json', '{"a":[{"b":[["c\\u0000"]]}]}'],
      ['a lone surrogate', 'application/json', '{"title":"\\ud800x"}'],
      ['a NUL in a form field', 'application/x-www-form-urlencoded', 'title=a%00b'],
    ])('answers %s with GitLab\'s 400 Bad Request in plain text', async (_what, type, body) => {
      const r = await echo('post').set('content-type', type).send(body);
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toBe('text/plain');
      expect(r.text).toBe('Bad Request');
    });

    it('keeps well-formed non-ASCII strings and surrogate pairs, and finds a NUL at any depth', async () => {
      await echo('post').send({ t: 'caf\u00e9 \ud83d\ude00', a: [[[['x']]]] }).expect(200, { body: { t: 'caf\u00e9 \ud83d\ude00', a: [[[['x']]]] } });
      const deep = '['.repeat(5000) + '"\\u0000"' + ']'.repeat(5000);
      const r = await echo('post').set('content-type', 'application/json').send(deep);
      expect(r.status).toBe(400);
    });

    it('leaves a body of another type unparsed', async () => {
      await echo('post').set('content-type', 'text/plain').send('hello').expect(200, { body: {} });
    });
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const r = await signed('post', '/api/v4/things').set('content-type', 'application/json').send('{bad').expect(400);
    expect(r.body.error).toBeDefined();
  });

  it('renders typed errors as GitLab bodies', async () => {
    await signed('get', '/api/v4/missing').expect(404, { message: '404 Project Not Found' });
    await signed('post', '/api/v4/dupe').expect(409, { message: 'Email has already been taken' });
    await signed('post', '/api/v4/invalid').expect(400, { message: { email: ['is invalid'] } });
    const nm = await signed('post', '/api/v4/subscribe').expect(304);
    expect(nm.text).toBe('');
  });

  it('turns unknown errors into a 500 body without details', async () => {
    await signed('get', '/api/v4/boom').expect(500, { message: '500 Internal Server Error' });
  });

  it('answers unknown routes with GitLab 404', async () => {
    await signed('get', '/api/v4/nope').expect(404, { error: '404 Not Found' });
  });

  it('paginates with every GitLab header', async () => {
    const r = await signed('get', '/api/v4/list?per_page=20&page=2&x=1').expect(200);
    expect(r.body).toEqual(Array.from({ length: 20 }, (_, i) => i + 21));
    expect(r.headers['x-total']).toBe('45');
    expect(r.headers['x-total-pages']).toBe('3');
    expect(r.headers['x-page']).toBe('2');
    expect(r.headers['x-per-page']).toBe('20');
    expect(r.headers['x-next-page']).toBe('3');
    expect(r.headers['x-prev-page']).toBe('1');
    expect(r.headers.link).toBe(
      '<http://gw.test/api/v4/list?per_page=20&page=1&x=1>; rel="prev", <http://gw.test/api/v4/list?per_page=20&page=3&x=1>; rel="next", ' +
        '<http://gw.test/api/v4/list?per_page=20&page=1&x=1>; rel="first", <http://gw.test/api/v4/list?per_page=20&page=3&x=1>; rel="last"',
    );
  });

  it('rejects page 0 and caps per_page at 100', async () => {
    await signed('get', '/api/v4/list?page=0').expect(400, { error: 'page does not have a valid value' });
    const r = await signed('get', '/api/v4/list?per_page=500').expect(200);
    expect(r.headers['x-per-page']).toBe('100');
    expect(r.headers['x-next-page']).toBe('');
  });

  it('guards /internal with the shared token', async () => {
    expect((await request(app).get('/internal/ping').expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await request(app).get('/internal/ping').set(INTERNAL_TOKEN_HEADER, 'wrong-token!').expect(401)).body).toEqual({ message: '401 Unauthorized' });
    await request(app).get('/internal/ping').set(INTERNAL_TOKEN_HEADER, 'secret-token').expect(200, { ok: true });
  });
});
