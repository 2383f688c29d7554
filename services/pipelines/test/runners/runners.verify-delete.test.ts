import { actor, startService, TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';

describe('runner lifecycle: POST /runners/verify, DELETE /runners, and the removed registration routes', () => {
  let svc: TestService;
  const admin = actor('root', { admin: true });
  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  async function newRunner(): Promise<{ id: number; token: string }> {
    const r = await svc.as({ user: admin }).post('/api/v4/user/runners').send({ runner_type: 'instance_type' }).expect(201);
    return r.body;
  }

  describe('POST /runners/verify', () => {
    it('answers 200 with the runner id and token and records the contact', async () => {
      const { id, token } = await newRunner();
      const r = await svc.as({}).post('/api/v4/runners/verify').send({ token, system_id: 's_1', info: { name: 'anvil-runner' } }).expect(200);
      expect(r.body).toEqual({ id, token, token_expires_at: null });
      const row = await svc.deps.db('runners').where({ id }).first();
      expect(row.contacted_at).not.toBeNull();
    });

    it('returns 403 for an unknown token', async () => {
      const r = await svc.as({}).post('/api/v4/runners/verify').send({ token: 'glrt-t1_nope' }).expect(403);
      expect(r.body).toEqual({ message: '403 Forbidden' });
    });

    it('returns 400 without a token', async () => {
      const r = await svc.as({}).post('/api/v4/runners/verify').send({}).expect(400);
      expect(r.body).toEqual({ error: 'token is missing' });
    });
  });

  describe('DELETE /runners', () => {
    it('deletes the runner the token names (204), after which its token is refused', async () => {
      const { id, token } = await newRunner();
      await svc.as({}).delete('/api/v4/runners').send({ token }).expect(204);
      expect(await svc.deps.db('runners').where({ id }).first()).toBeUndefined();
      await svc.as({}).post('/api/v4/runners/verify').send({ token }).expect(403);
    });

    it('returns 403 for an unknown token', async () => {
      await svc.as({}).delete('/api/v4/runners').send({ token: 'glrt-unknown' }).expect(403);
    });
  });

  describe('POST /runners (registration token)', () => {
    it('returns 410 Gone: runner registration is disallowed', async () => {
      const r = await svc.as({}).post('/api/v4/runners').send({ token: 'GR1348941abc', description: 'legacy' }).expect(410);
      expect(r.body).toEqual({ message: '410 Gone - runner registration disallowed' });
    });

    it('returns 403 for an empty token and 400 without one', async () => {
      const empty = await svc.as({}).post('/api/v4/runners').send({ token: '' }).expect(403);
      expect(empty.body).toEqual({ message: '403 Forbidden - invalid token supplied' });
      await svc.as({}).post('/api/v4/runners').send({}).expect(400, { error: 'token is missing' });
    });
  });

  describe('reset_registration_token', () => {
    it.each(['/api/v4/runners/reset_registration_token', '/api/v4/projects/5/runners/reset_registration_token', '/api/v4/groups/5/runners/reset_registration_token'])('%s returns 410 Gone, 401 anonymous', async (path) => {
      const r = await svc.as({ user: admin }).post(path).expect(410);
      expect(r.body).toEqual({ message: '410 Gone' });
      await svc.as({}).post(path).expect(401);
    });
  });
});
