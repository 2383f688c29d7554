import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { RunningGateway, RouteDef } from '../src';
import { ROUTES } from '../src';
import { Echo, startEcho } from './support/echo';
import { deadPort, startTestGateway } from './support/gateway';

/**
 * A routing table with two more entries: job artifacts whose bodies the gateway stores, and job traces
 * it streams, whose reused answers `pipelines.` events forget.
 */
const WITH_ARTIFACTS: RouteDef[] = [
  ...ROUTES,
  { pattern: '/jobs/:job/artifacts', service: 'pipelines', resolve: 'none', storesBodies: { methods: ['POST'] } },
  { pattern: '/jobs/:job/trace', service: 'pipelines', resolve: 'none', reusedAnswers: { writtenBy: 'pipelines.' } },
];

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir: string;
let echo: Echo;
let gw: RunningGateway;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-stored-'));
  echo = await startEcho('pipelines');
  const identity = `http://127.0.0.1:${await deadPort()}`;
  gw = await startTestGateway({ identity, pipelines: echo.url }, { ACCELERATED_TRANSFERS: 'true', STORAGE_DRIVER: 'local', STORAGE_DIR: dir }, { routes: WITH_ARTIFACTS });
});

afterAll(async () => {
  await gw?.stop();
  await echo?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a routing-table entry that says the gateway stores bodies', () => {
  it('is all it takes: the body goes to storage and the service gets the stored object in its context', async () => {
    const body = randomBytes(100_000);
    const res = await request(gw.url).post('/api/v4/jobs/7/artifacts').set('Content-Type', 'application/octet-stream').send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ service: 'pipelines', method: 'POST', path: '/api/v4/jobs/7/artifacts', bytes: 0 });
    expect(res.body.headers['content-length'] ?? '0').toBe('0');
    const upload = res.body.ctx.transfer.upload;
    expect(res.body.ctx.transfer.phase).toBe('stored');
    expect(upload).toMatchObject({ size: body.length, sha256: sha256(body), md5: createHash('md5').update(body).digest('hex') });
    expect(upload.key).toMatch(/^uploads\//);
    expect(fs.readFileSync(path.join(dir, ...upload.key.split('/')))).toEqual(body);
    // the entry does not say the gateway sends stored files
    expect(res.body.ctx.send_file).toBeUndefined();
  });

  it.each([
    ['on another route (its entry does not say so)', 'post', '/api/v4/jobs/7/trace'],
    ['for a method the entry does not name', 'put', '/api/v4/jobs/7/artifacts'],
  ] as const)('and only there: %s the body streams to the service', async (_what, method, url) => {
    const body = randomBytes(50_000);
    const res = await request(gw.url)[method](url).set('Content-Type', 'application/octet-stream').send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bytes: body.length, sha256: sha256(body) });
    expect(res.body.ctx.transfer).toBeUndefined();
  });
});

describe('a routing-table entry that says which events forget reused answers', () => {
  it('adds those events to what the gateway hears, and one of them bumps its project', () => {
    expect(gw.gateway.eventPatterns.sort()).toEqual(['pipelines.#', 'registry.#']);
    const before = gw.gateway.reusedAnswers.generation(5);
    gw.gateway.invalidate('pipelines.job.updated', { project_id: 5 });
    expect(gw.gateway.reusedAnswers.generation(5)).toBe(before + 1);
    expect(gw.gateway.reusedAnswers.generation(6)).toBe(before);
  });
});
