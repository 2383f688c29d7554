import { createDb, dropSchema, loginUrl, provisionService } from '../src';

// Plain env reads (not @anvil/testing, which depends on this lib): global setup sets these.
const url = () => process.env.TEST_DATABASE_URL as string;
const uniqueName = (p: string) => `t_${p}_${process.env.ANVIL_TEST_RUN ?? 'local'}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase();

describe('provisionService', () => {
  const schema = uniqueName('prov');
  const other = uniqueName('provx');
  const admin = createDb({ url: url(), schema: 'public', role: false, pool: { min: 0, max: 1 } });
  afterAll(async () => {
    await dropSchema({ url: url(), schema });
    await admin.raw(`DROP ROLE IF EXISTS "${other}"`);
    await admin.destroy();
  });

  it('creates a login owning its schema, with its search_path, member of nothing; again changes nothing but the password', async () => {
    // a role the login was once granted (the shared login of an older release held every schema's role)
    await admin.raw(`CREATE ROLE "${other}" NOLOGIN`);
    await admin.raw(`CREATE ROLE "${schema}" NOLOGIN`);
    await admin.raw(`GRANT "${other}" TO "${schema}"`);
    const first = await provisionService({ adminUrl: url(), schema, password: 'first-password-0123456789', serialQueries: true });
    const again = await provisionService({ adminUrl: url(), schema, password: 'second-password-0123456789' });
    expect(new URL(first).username).toBe(schema);
    expect(decodeURIComponent(new URL(again).password)).toBe('second-password-0123456789');
    expect(again).toBe(loginUrl(url(), schema, 'second-password-0123456789'));

    const role = (await admin.raw('SELECT rolcanlogin, rolsuper, rolinherit FROM pg_roles WHERE rolname = ?', [schema])).rows[0];
    expect(role).toEqual({ rolcanlogin: true, rolsuper: false, rolinherit: false });
    const memberOf = await admin.raw('SELECT 1 FROM pg_auth_members WHERE member = (SELECT oid FROM pg_roles WHERE rolname = ?)', [schema]);
    expect(memberOf.rows).toEqual([]);
    const ns = (await admin.raw('SELECT nspowner::regrole::text AS owner, nspacl::text AS acl FROM pg_namespace WHERE nspname = ?', [schema])).rows[0];
    expect(ns.owner).toBe(schema);
    expect(ns.acl ?? '').not.toMatch(/(^|[{,])=/); // nothing granted to PUBLIC
    const settings = (await admin.raw('SELECT setconfig FROM pg_db_role_setting WHERE setrole = (SELECT oid FROM pg_roles WHERE rolname = ?)', [schema])).rows[0].setconfig;
    // the second run left serial planning as the first set it
    expect(settings.map((c: string) => c.replace(/"/g, '')).sort()).toEqual(['max_parallel_workers_per_gather=0', `search_path=${schema}`]);

    const login = createDb({ url: again, schema, role: false, pgbouncer: true, pool: { min: 0, max: 1 } });
    try {
      const r = await login.raw("SELECT current_user AS u, current_setting('search_path') AS sp, current_setting('max_parallel_workers_per_gather') AS mp");
      expect({ ...r.rows[0], sp: r.rows[0].sp.replace(/"/g, '') }).toEqual({ u: schema, sp: schema, mp: '0' });
      await login.schema.createTable('mine', (t) => t.increments('id'));
      await expect(login.raw(`SET ROLE "${other}"`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await login.destroy();
    }
  });

  it('dropSchema removes the schema and the login', async () => {
    const s = uniqueName('provd');
    await provisionService({ adminUrl: url(), schema: s, password: 'drop-password-0123456789' });
    await dropSchema({ url: url(), schema: s });
    expect((await admin.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [s])).rows).toEqual([]);
    expect((await admin.raw('SELECT 1 FROM pg_namespace WHERE nspname = ?', [s])).rows).toEqual([]);
  });
});
