import request from 'supertest';
import type { RunningGateway } from '../src';
import type { ServiceName } from '../src/routes';
import { Echo, startEcho } from './support/echo';
import { startTestGateway } from './support/gateway';

const SERVICES: ServiceName[] = ['identity', 'work-items'];
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

/** The value of the series `name{labels}` (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...m[2].matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.keys(have).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

test('/metrics counts latency per routing-table pattern and method, never per raw path', async () => {
  for (const path of ['/api/v4/users/5', '/api/v4/users/6/projects', '/api/v4/todos', '/api/v4/nothing/here']) {
    await request(gw.url).get(path);
  }
  await request(gw.url).delete('/api/v4/todos');
  const res = await request(gw.url).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = res.text;
  const h = 'gateway_request_duration_seconds';
  expect(sample(text, `${h}_count`, { route: '/users/*', method: 'GET' })).toBe(2);
  expect(sample(text, `${h}_bucket`, { route: '/users/*', method: 'GET', le: '+Inf' })).toBe(2);
  expect(sample(text, `${h}_bucket`, { route: '/users/*', method: 'GET', le: '30' })).toBe(2);
  expect(sample(text, `${h}_sum`, { route: '/users/*', method: 'GET' })).toBeGreaterThan(0);
  expect(sample(text, `${h}_count`, { route: '/todos/*', method: 'GET' })).toBe(1);
  expect(sample(text, `${h}_count`, { route: '/todos/*', method: 'DELETE' })).toBe(1);
  expect(sample(text, `${h}_count`, { route: 'unmatched', method: 'GET' })).toBe(1);
  expect(text).not.toContain('/users/5');
  expect(text).not.toContain('nothing');
  expect(sample(text, 'gateway_responses_total', { status: '200' })).toBeGreaterThanOrEqual(3);
  expect(sample(text, 'gateway_responses_total', { status: '404' })).toBe(1);
  // the scrape itself is counted once it has been answered
  const again = (await request(gw.url).get('/metrics')).text;
  expect(sample(again, `${h}_count`, { route: '/metrics', method: 'GET' })).toBe(1);
});
