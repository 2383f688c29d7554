import { actor, startService, TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';

describe('POST /user/runners', () => {
  let svc: TestService;
  const admin = actor('root', { admin: true });
  const alice = actor('alice');
  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  describe('as an administrator', () => {
    it('creates an instance runner and answers its glrt- token once, storing only a digest', async () => {
      const r = await svc.as({ user: admin }).post('/api/v4/user/runners').send({ runner_type: 'instance_type', description: 'r1', tag_list: 'linux,docker', run_untagged: false }).expect(201);
      expect(Object.keys(r.body)).toEqual(['id', 'token', 'token_expires_at']);
      expect(r.body.token).toMatch(/^glrt-t1_[A-Za-z0-9_-]{27}$/);
      expect(r.body.token_expires_at).toBeNull();
      const row = await svc.deps.db('runners').where({ id: r.body.id }).first();
      expect(row.token_digest).not.toContain(r.body.token);
      expect(row.token_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(row).toMatchObject({ runner_type: 'instance_type', description: 'r1', tag_list: ['docker', 'linux'], run_untagged: false, creation_state: 'started', creator_id: String(admin.id) });
    });
  });

  describe('as a user who is not an administrator', () => {
    it('returns 403 Insufficient permissions for an instance runner', async () => {
      const r = await svc.as({ user: alice }).post('/api/v4/user/runners').send({ runner_type: 'instance_type' }).expect(403);
      expect(r.body).toEqual({ message: '403 Forbidden - Insufficient permissions' });
    });
  });

  describe('with bad parameters', () => {
    it('returns 400 when runner_type is missing or unknown', async () => {
      const missing = await svc.as({ user: admin }).post('/api/v4/user/runners').send({}).expect(400);
      expect(missing.body).toEqual({ error: 'runner_type is missing' });
      const unknown = await svc.as({ user: admin }).post('/api/v4/user/runners').send({ runner_type: 'shared' }).expect(400);
      expect(unknown.body).toEqual({ error: 'runner_type does not have a valid value' });
    });

    it('returns 400 when a group runner has no group_id', async () => {
      const r = await svc.as({ user: admin }).post('/api/v4/user/runners').send({ runner_type: 'group_type' }).expect(400);
      expect(r.body).toEqual({ error: 'group_id is missing' });
    });

    it('returns 400 for an access_level GitLab does not know', async () => {
      const r = await svc.as({ user: admin }).post('/api/v4/user/runners').send({ runner_type: 'instance_type', access_level: 'everything' }).expect(400);
      expect(r.body).toEqual({ error: 'access_level does not have a valid value' });
    });
  });

  describe('anonymous', () => {
    it('returns 401', async () => {
      await svc.as({}).post('/api/v4/user/runners').send({ runner_type: 'instance_type' }).expect(401);
    });
  });
});
