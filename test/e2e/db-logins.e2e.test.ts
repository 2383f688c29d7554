import { identityService } from '@anvil/identity';
import { registryService } from '@anvil/registry';
import { startService, type TestService } from '@anvil/testing';

/** What Postgres answers a statement: its rows, or the SQLSTATE it failed with. */
async function outcome(svc: TestService, sql: string): Promise<string> {
  try {
    await svc.deps.db.raw(sql);
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

describe('each service connects as its own login', () => {
  let identity: TestService;
  let registry: TestService;
  beforeAll(async () => {
    identity = await startService(identityService, { env: { ADMIN_TOKEN: 'glpat-db-logins-admin-token-0001' } });
    registry = await startService(registryService, { env: { CONAN_JWT_SECRET: 'conan-db-logins-secret-0123456789abcdef' } });
  });
  afterAll(async () => {
    await registry?.stop();
    await identity?.stop();
  });

  it('runs as a login named after its schema, member of no other role, with no SET ROLE', async () => {
    const r = await registry.deps.db.raw('SELECT current_user AS cu, session_user AS su, current_setting(\'search_path\') AS sp');
    expect({ ...r.rows[0], sp: r.rows[0].sp.replace(/"/g, '') }).toEqual({ cu: registry.deps.schema, su: registry.deps.schema, sp: registry.deps.schema });
    // the search_path is the login's own setting: a connection needs no SET (PgBouncer's transaction mode)
    const settings = await registry.deps.db.raw('SELECT setconfig FROM pg_db_role_setting WHERE setrole = (SELECT oid FROM pg_roles WHERE rolname = current_user)');
    expect(settings.rows[0].setconfig.map((c: string) => c.replace(/"/g, ''))).toContain(`search_path=${registry.deps.schema}`);
    const roles = await registry.deps.db.raw("SELECT rolname FROM pg_roles WHERE pg_has_role(current_user, oid, 'MEMBER') AND rolname <> current_user");
    expect(roles.rows).toEqual([]);
    const su = await registry.deps.db.raw('SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user');
    expect(su.rows[0]).toEqual({ rolsuper: false, rolcreaterole: false, rolcreatedb: false });
  });

  it('owns its schema: its tables are its own', async () => {
    const r = await registry.deps.db.raw('SELECT nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = ?', [registry.deps.schema]);
    expect(r.rows[0].owner).toBe(registry.deps.schema);
    const t = await registry.deps.db.raw("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = ?", [registry.deps.schema]);
    expect(t.rows).toEqual([{ tableowner: registry.deps.schema }]);
  });

  it("cannot read or write identity's tables, nor become identity's role", async () => {
    const id = identity.deps.schema;
    expect(await identity.deps.db('users').where({ username: 'root' }).first()).toBeTruthy();
    expect(await outcome(registry, `SELECT * FROM "${id}".users`)).toBe('42501');
    expect(await outcome(registry, `SELECT * FROM "${id}".personal_access_tokens`)).toBe('42501');
    expect(await outcome(registry, `INSERT INTO "${id}".personal_access_tokens (user_id, name, scopes, token_digest) VALUES (1, 'x', '[]', 'x')`)).toBe('42501');
    expect(await outcome(registry, `UPDATE "${id}".users SET admin = true`)).toBe('42501');
    expect(await outcome(registry, `SET ROLE "${id}"`)).toBe('42501');
    expect(await outcome(registry, `SET SESSION AUTHORIZATION "${id}"`)).toBe('42501');
    expect(await outcome(registry, `CREATE TABLE "${id}".planted (id int)`)).toBe('42501');
    // nor create anything outside its schema
    expect(await outcome(registry, 'CREATE TABLE public.planted_by_registry (id int)')).toBe('42501');
    // and identity cannot reach the registry's either
    expect(await outcome(identity, `SELECT * FROM "${registry.deps.schema}".outbox`)).toBe('42501');
  });
});
