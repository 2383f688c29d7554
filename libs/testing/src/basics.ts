import type { ServiceDefinition } from '@anvil/runtime';
import { startService, TestService } from './service';

/**
 * The behaviour every service shares, as a jest suite: probes and metrics answer, the schema is
 * migrated (outbox and inbox present), and /api/v4 refuses requests that bypass the gateway.
 * `env` is the service's own required settings (the registry's `CONAN_JWT_SECRET`).
 */
export function describeServiceBasics(def: ServiceDefinition, env: Record<string, string> = {}): void {
  describe(`${def.name} service basics`, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(def, { env });
    });
    afterAll(async () => {
      await svc?.stop();
    });

    it('serves /-/health, /-/liveness, /-/readiness and /metrics', async () => {
      await svc.raw().get('/-/health').expect(200);
      await svc.raw().get('/-/liveness').expect(200, { status: 'ok' });
      await svc.raw().get('/-/readiness').expect(200, { status: 'ok', service: def.name });
      const m = await svc.raw().get('/metrics').expect(200);
      expect(m.text).toContain(`service="${def.name}"`);
    });

    it('migrates its own schema, with the outbox and inbox', async () => {
      const r = await svc.deps.db.raw('select table_name from information_schema.tables where table_schema = ?', [svc.deps.schema]);
      const tables = r.rows.map((x: { table_name: string }) => x.table_name);
      expect(tables).toEqual(expect.arrayContaining(['outbox', 'inbox', 'knex_migrations']));
    });

    it('refuses /api/v4 requests without the gateway context', async () => {
      const r = await svc.raw().get('/api/v4/projects/1').expect(401);
      expect(r.body.message).toMatch(/^401 Unauthorized/);
    });

    it('refuses a forged context header', async () => {
      await svc.raw().get('/api/v4/projects/1').set('x-anvil-context', 'e30.AAAA').expect(401);
    });

    it('answers unknown routes with GitLab 404', async () => {
      await svc.raw().get('/nope').expect(404, { error: '404 Not Found' });
    });
  });
}
