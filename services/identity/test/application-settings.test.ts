import { events, Identity, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity({ APPLICATION_SETTINGS: JSON.stringify({ max_attachment_size: 42, unknown_setting: 1 }) });
});
afterAll(async () => svc?.stop());

const DEFAULTS = {
  id: 1,
  allow_local_requests_from_web_hooks_and_services: false,
  allow_local_requests_from_system_hooks: true,
  outbound_local_requests_whitelist: [],
  max_export_size: 0,
  max_import_size: 0,
  max_attachment_size: 42,
  notes_create_limit: 300,
  project_export_limit: 6,
  project_download_export_limit: 1,
  project_import_limit: 6,
};

describe('GET /application/settings', () => {
  it('returns 401 to anonymous callers', async () => {
    expect((await svc.as({ user: null }).get('/api/v4/application/settings').expect(401)).body).toEqual({ message: '401 Unauthorized' });
  });

  it('returns 403 to a user who is not an administrator', async () => {
    const user = await makeUser(svc);
    expect((await svc.as({ user }).get('/api/v4/application/settings').expect(403)).body).toEqual({ message: '403 Forbidden' });
  });

  it('returns the defaults with the initial values from the environment to an administrator', async () => {
    const res = await svc.as({ user: await rootActor(svc) }).get('/api/v4/application/settings').expect(200);
    expect(res.body).toEqual(DEFAULTS);
  });
});

describe('PUT /application/settings', () => {
  it('returns 403 to a user who is not an administrator and changes nothing', async () => {
    const user = await makeUser(svc);
    await svc.as({ user }).put('/api/v4/application/settings').send({ notes_create_limit: 1 }).expect(403);
    expect((await svc.as({ user: await rootActor(svc) }).get('/api/v4/application/settings')).body.notes_create_limit).toBe(300);
  });

  describe('as an administrator', () => {
    afterEach(async () => {
      await svc.deps.db('application_settings').update({ settings: JSON.stringify(DEFAULTS) });
    });

    it('changes the given settings, stores them and writes identity.settings.updated', async () => {
      const root = await rootActor(svc);
      const res = await svc
        .as({ user: root })
        .put('/api/v4/application/settings')
        .send({ allow_local_requests_from_web_hooks_and_services: true, outbound_local_requests_whitelist: ['hooks.internal', '10.0.0.0/8'], notes_create_limit: 10 })
        .expect(200);
      expect(res.body).toEqual({ ...DEFAULTS, allow_local_requests_from_web_hooks_and_services: true, outbound_local_requests_whitelist: ['hooks.internal', '10.0.0.0/8'], notes_create_limit: 10 });
      const row = await svc.deps.db('application_settings').first();
      expect(row.settings).toMatchObject({ notes_create_limit: 10, allow_local_requests_from_web_hooks_and_services: true });
      const [ev] = (await events(svc, 'identity.settings.updated')).slice(-1);
      expect(ev.data).toMatchObject({ changes: ['allow_local_requests_from_web_hooks_and_services', 'outbound_local_requests_whitelist', 'notes_create_limit'], actor_id: root.id });
    });

    it('accepts python-gitlab style strings and a comma-separated allowlist', async () => {
      const res = await svc.as({ user: await rootActor(svc) }).put('/api/v4/application/settings').send({ allow_local_requests_from_system_hooks: 'False', outbound_local_requests_whitelist: 'a.test,b.test' }).expect(200);
      expect(res.body).toMatchObject({ allow_local_requests_from_system_hooks: false, outbound_local_requests_whitelist: ['a.test', 'b.test'] });
    });

    it('returns 400 with field errors for an out-of-range value and stores nothing', async () => {
      const before = (await events(svc, 'identity.settings.updated')).length;
      const res = await svc.as({ user: await rootActor(svc) }).put('/api/v4/application/settings').send({ max_attachment_size: 0, project_import_limit: -1 }).expect(400);
      expect(res.body).toEqual({ message: { max_attachment_size: ['must be greater than 0'], project_import_limit: ['must be greater than or equal to 0'] } });
      expect((await events(svc, 'identity.settings.updated')).length).toBe(before);
    });

    it('returns 400 for a value of the wrong type', async () => {
      const res = await svc.as({ user: await rootActor(svc) }).put('/api/v4/application/settings').send({ notes_create_limit: 'many' }).expect(400);
      expect(res.body).toEqual({ error: 'notes_create_limit is invalid' });
    });
  });
});
