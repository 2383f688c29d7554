import http from 'node:http';
import type { RunningGateway } from '../src';
import { malformedCredentials, malformedUrl } from '../src/malformed';
import { Echo, startEcho } from './support/echo';
import { startTestGateway } from './support/gateway';

describe('malformed strings (GitLab HandleMalformedStrings)', () => {
  test.each([
    ['/api/v4/projects/5/packages/conan/v1/ping', '', false],
    ['/api/v4/groups/a%2Fb', '', false],
    ['/api/v4/projects/%C3%A9t%C3%A9', '', false],
    ['/api/v4/projects/a%00b', '', true],
    ['/api/v4/projects/%zz', '', true],
    ['/api/v4/projects/50%', '', true],
    ['/api/v4/projects/%FF', '', true],
    ['/api/v4/projects/%C0%AF', '', true],
    ['/api/v4/projects/%ED%A0%80', '', true],
    ['/api/v4/issues', 'search=a+b&labels=x,y&iids[]=1', false],
    ['/api/v4/issues', 'search=caf%C3%A9&x', false],
    ['/api/v4/issues', 'search=a%00', true],
    ['/api/v4/issues', 'a%00=1', true],
    ['/api/v4/issues', 'search=%E9', true],
    ['/api/v4/issues', 'search=%', true],
    ['/api/v4/issues', 'q=%2', true],
  ])('%s ? %s → malformed %s', (path, query, malformed) => {
    expect(malformedUrl(path, query)).toBe(malformed);
  });

  test.each([
    [undefined, false],
    ['Bearer abc.def.ghi', false],
    [`Basic ${Buffer.from('user:token').toString('base64')}`, false],
    [`Basic ${Buffer.from('us\u00e9r:t\u00f6ken').toString('base64')}`, false],
    ['Basic !!!', false],
    [`Basic ${Buffer.from('user\0:token').toString('base64')}`, true],
    [`basic ${Buffer.from('user:tok\0en').toString('base64')}`, true],
  ])('credentials %s → malformed %s', (authorization, malformed) => {
    expect(malformedCredentials(authorization)).toBe(malformed);
  });
});

describe('through the gateway', () => {
  let echo: Echo;
  let gw: RunningGateway;
  let upstreamRequests = 0;

  beforeAll(async () => {
    echo = await startEcho('registry');
    gw = await startTestGateway({ registry: echo.url, identity: echo.url, 'work-items': echo.url });
    echo.probe.on('request', () => upstreamRequests++);
  });
  afterAll(async () => {
    await gw?.stop();
    await echo?.stop();
  });

  /** Sends `path` as it is (no normalisation by the client). */
  function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(gw.url, { path, headers, agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  test.each([
    ['/api/v4/packages/conan/v1/conans/search?q=%00', {}],
    ['/api/v4/projects/1/packages/conan/v2/conans/pkg%00/1.0/_/_/latest', {}],
    ['/api/v4/packages/conan/v1/conans/pkg/1.0/_/%zz', {}],
    ['/api/v4/issues?search=%E9t%E9', {}],
    ['/api/v4/projects/1/packages/conan/v2/users/authenticate', { Authorization: `Basic ${Buffer.from('root\0:x').toString('base64')}` }],
  ])('%s → 400 Bad Request in plain text, before any service', async (path, headers) => {
    const before = upstreamRequests;
    const res = await get(path, headers);
    expect(res).toEqual({ status: 400, type: 'text/plain', body: 'Bad Request' });
    expect(upstreamRequests).toBe(before);
  });

  test('a well-formed request with encoded characters still reaches its service', async () => {
    const res = await get('/api/v4/packages/conan/v1/conans/search?q=caf%C3%A9*');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ service: 'registry', path: '/api/v4/packages/conan/v1/conans/search?q=caf%C3%A9*' });
  });
});
