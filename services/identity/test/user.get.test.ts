import { Identity, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

describe('GET /user', () => {
  describe('as a regular user', () => {
    it('returns UserPublic with exactly its fields', async () => {
      const me = await makeUser(svc, { bio: 'hello', job_title: 'Smith', organization: 'Forge' });
      const res = await svc.as({ user: me }).get('/api/v4/user').expect(200);
      expect(Object.keys(res.body).sort()).toEqual(
        [
          'id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url', 'created_at', 'bio', 'location', 'public_email', 'linkedin', 'twitter', 'discord', 'github',
          'website_url', 'organization', 'job_title', 'pronouns', 'bot', 'work_information', 'followers', 'following', 'is_followed', 'local_time', 'last_sign_in_at',
          'confirmed_at', 'last_activity_on', 'email', 'theme_id', 'color_scheme_id', 'projects_limit', 'current_sign_in_at', 'identities', 'can_create_group',
          'can_create_project', 'two_factor_enabled', 'external', 'private_profile', 'commit_email',
        ].sort(),
      );
      expect(res.body).toMatchObject({
        id: me.id,
        username: me.username,
        state: 'active',
        locked: false,
        web_url: `http://127.0.0.1:8080/${me.username}`,
        email: `${me.username}@example.com`,
        commit_email: `${me.username}@example.com`,
        bio: 'hello',
        work_information: 'Smith at Forge',
        identities: [],
        external: false,
      });
      expect(res.body.is_admin).toBeUndefined();
    });
  });

  describe('as an administrator', () => {
    it('returns UserWithAdmin (is_admin, namespace_id)', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).get('/api/v4/user').expect(200);
      expect(res.body).toMatchObject({ id: root.id, username: 'root', name: 'Administrator', email: 'admin@example.com', is_admin: true, note: null, created_by: null });
      expect(typeof res.body.namespace_id).toBe('number');
    });
  });

  describe('anonymous', () => {
    it('returns 401', async () => {
      const res = await svc.as({ user: null }).get('/api/v4/user').expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('without the gateway context', () => {
    it('returns 401', async () => {
      const res = await svc.raw().get('/api/v4/user').expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized - request did not come through the gateway' });
    });
  });
});
