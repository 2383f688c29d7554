import type { Actor } from '@anvil/auth';
import { CONTEXT_HEADER } from '@anvil/auth';
import { bootService, type RunningService } from '@anvil/runtime';
import { signFor, TEST_INTERNAL_TOKEN, testKeys } from '@anvil/testing';
import request from 'supertest';
import { workItemsService } from '../../src';
import { notesWorld, type NotesWorld } from '../support/notes';

const TOO_MANY = { message: { error: 'This endpoint has been requested too many times. Try again later.' } };

describe('notes_create rate limit across replicas', () => {
  let w: NotesWorld;
  let second: RunningService;
  beforeAll(async () => {
    w = await notesWorld('issues', { NOTES_CREATE_LIMIT: '2' });
    const cfg = w.svc.deps.config;
    // a second replica on the same schema, as the same login, sharing the bus
    const env = {
      DATABASE_URL: String(cfg.DATABASE_URL), GATEWAY_PUBLIC_KEY: testKeys.publicKey, INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN, STORAGE_DIR: String(cfg.STORAGE_DIR),
      PUBLIC_URL: String(cfg.PUBLIC_URL), LOG_LEVEL: 'silent', NOTES_CREATE_LIMIT: '2', SHUTDOWN_GRACE_MS: '0',
    };
    second = await bootService(workItemsService, { env, schema: w.svc.deps.schema, port: 0, bus: w.svc.deps.bus, storage: w.svc.deps.storage, queuePrefix: `${w.svc.deps.schema}.` });
  });
  afterAll(async () => {
    await second?.stop();
    await w?.svc.stop();
  });

  /** A note by `who` through the second replica, signed as the gateway signs it. */
  const viaSecond = (who: Actor, path: string, body: string) =>
    request(second.server).post(path).set(CONTEXT_HEADER, signFor('POST', path, { user: who, project: w.world.projectScope(w.project, who) }, 'work-items')).send({ body });

  const setLimit = (limit: number) => w.world.publish('identity.settings.updated', { settings: { notes_create_limit: limit }, changes: ['notes_create_limit'], actor_id: w.admin.id });

  it('counts the notes of every replica together: the third within the minute gets 429 with Retry-After', async () => {
    const made = await w.make();
    const path = w.notes(made.ref);
    await w.on(w.guest).post(path).send({ body: 'one' }).expect(201);
    expect((await viaSecond(w.guest, path, 'two')).status).toBe(201);
    const over = await viaSecond(w.guest, path, 'three');
    expect(over.status).toBe(429);
    expect(over.body).toEqual(TOO_MANY);
    expect(over.headers['retry-after']).toBe('60');
    const again = await w.on(w.guest).post(path).send({ body: 'four' }).expect(429);
    expect(again.headers['retry-after']).toBe('60');
    const stored = await w.svc.deps.db('notes').where({ noteable_id: made.id, noteable_type: 'Issue', system: false }).pluck('body');
    expect(stored.sort()).toEqual(['one', 'two']);
  });

  it('follows identity.settings.updated on every replica, still counting together', async () => {
    const made = await w.make();
    const path = w.notes(made.ref);
    await setLimit(1);
    expect((await viaSecond(w.reporter, path, 'first')).status).toBe(201);
    await w.on(w.reporter).post(path).send({ body: 'second' }).expect(429);
    expect((await viaSecond(w.reporter, path, 'third')).status).toBe(429);
    await setLimit(0);
    await w.on(w.reporter).post(path).send({ body: 'free' }).expect(201);
    expect((await viaSecond(w.reporter, path, 'free too')).status).toBe(201);
  });
});
