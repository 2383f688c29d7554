import express from 'express';
import request from 'supertest';
import { createDb, dropSchema, ensureSchema, isUniqueViolation, Knex, migrate, PreparedStatement, rollbackAll, translatePgError } from '../src';
import { keysetPaginate, paginate } from '@anvil/http';

// Plain env reads (not @anvil/testing, which depends on this lib): global setup sets these.
const url = () => process.env.TEST_DATABASE_URL as string;
const uniqueName = (p: string) => `t_${p}_${process.env.ANVIL_TEST_RUN ?? 'local'}_${Math.random().toString(36).slice(2, 8)}`;

describe('libs/db against a real Postgres', () => {
  const a = uniqueName('dba');
  const b = uniqueName('dbb');
  let da: Knex;
  let dbb: Knex;
  const migrations = [
    {
      name: '20261122000001_create_things',
      up: async (k: Knex) => {
        await k.schema.createTable('things', (t) => {
          t.increments('id');
          t.string('name', 10).notNullable().unique();
          t.integer('n');
        });
      },
      down: async (k: Knex) => {
        await k.schema.dropTable('things');
      },
    },
  ];

  beforeAll(async () => {
    await ensureSchema({ url: url(), schema: a });
    await ensureSchema({ url: url(), schema: a }); // idempotent
    await ensureSchema({ url: url(), schema: b });
    da = createDb({ url: url(), schema: a });
    dbb = createDb({ url: url(), schema: b });
    await migrate(da, a, migrations);
    await migrate(dbb, b, migrations);
  });

  afterAll(async () => {
    await da.destroy();
    await dbb.destroy();
    await dropSchema({ url: url(), schema: a });
    await dropSchema({ url: url(), schema: b });
  });

  it('creates tables and the migration table inside the service schema', async () => {
    const r = await da.raw('select table_name from information_schema.tables where table_schema = ? order by 1', [a]);
    expect(r.rows.map((x: { table_name: string }) => x.table_name)).toEqual(['knex_migrations', 'knex_migrations_lock', 'things']);
  });

  it('runs as the schema role: another service schema is permission denied', async () => {
    await expect(da.raw(`select * from "${b}".things`)).rejects.toThrow(/permission denied/);
  });

  it('maps a unique violation to 409 and a too-long value to 400', async () => {
    await da('things').insert({ name: 'x' });
    const dup = await da('things').insert({ name: 'x' }).catch((e: unknown) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    const e = translatePgError(dup);
    expect(e?.status).toBe(409);
    expect(e?.body).toEqual({ message: 'Name has already been taken' });
    const long = await da('things').insert({ name: 'x'.repeat(20) }).catch((err: unknown) => err);
    expect(translatePgError(long)?.status).toBe(400);
    const nn = await da('things').insert({ name: null }).catch((err: unknown) => err);
    expect(translatePgError(nn)?.body).toEqual({ message: { name: ["can't be blank"] } });
    expect(translatePgError(new Error('other'))).toBeUndefined();
  });

  it('paginates a query with counted headers and keyset cursors', async () => {
    await da('things').del();
    await da('things').insert(Array.from({ length: 25 }, (_, i) => ({ name: `t${i}`, n: i })));
    const app = express();
    app.get('/api/v4/things', async (req, res) => {
      const page = req.query.pagination === 'keyset'
        ? await keysetPaginate(req, da('things').select('id', 'n'), [{ column: 'id' }], 'desc')
        : await paginate(req, da('things').select('n').orderBy('id'));
      res.set(page.headers).json(page.items);
    });
    const r = await request(app).get('/api/v4/things?per_page=10&page=3').expect(200);
    expect(r.body.map((x: { n: number }) => x.n)).toEqual([20, 21, 22, 23, 24]);
    expect(r.headers['x-total']).toBe('25');
    expect(r.headers['x-total-pages']).toBe('3');
    expect(r.headers['x-next-page']).toBe('');

    const seen: number[] = [];
    let next: string | undefined = '/api/v4/things?pagination=keyset&per_page=10';
    let pages = 0;
    while (next) {
      const page = await request(app).get(next).expect(200);
      expect(page.headers['x-total']).toBeUndefined();
      seen.push(...page.body.map((x: { n: number }) => x.n));
      const link = page.headers.link as string | undefined;
      next = link ? new URL(/<([^>]+)>; rel="next"/.exec(link)![1]).pathname + new URL(/<([^>]+)>/.exec(link)![1]).search : undefined;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => 24 - i));
  });

  it('omits X-Total and rel="last" above 10,000 rows', async () => {
    await da.raw("insert into things (name, n) select 'b' || g::text, g from generate_series(1, 10001) g");
    const app = express();
    app.get('/api/v4/things', async (req, res) => {
      const page = await paginate(req, da('things').select('n').orderBy('id'));
      res.set(page.headers).json(page.items);
    });
    const r = await request(app).get('/api/v4/things').expect(200);
    expect(r.headers['x-total']).toBeUndefined();
    expect(r.headers['x-total-pages']).toBeUndefined();
    expect(r.headers.link).not.toContain('rel="last"');
    expect(r.headers['x-next-page']).toBe('2');
  });

  it('runs prepared statements on the schema’s connections, inside a transaction through it', async () => {
    const st = new PreparedStatement('SELECT id, name, n, CAST(:n AS int) + 1 AS next, :n::text AS again FROM things WHERE name = :name');
    expect(st.text).toBe('SELECT id, name, n, CAST($1 AS int) + 1 AS next, $1::text AS again FROM things WHERE name = $2');
    await da('things').insert({ name: 'prep', n: 7 });
    await dbb('things').insert({ name: 'prep', n: 8 });
    // many runs over the pool: prepared once per connection, then bound and run
    for (let i = 0; i < 25; i++) expect(await st.rows(da, { n: i, name: 'prep' })).toEqual([{ id: expect.any(Number), name: 'prep', n: 7, next: i + 1, again: String(i) }]);
    expect((await st.rows<{ n: number }>(dbb, { n: 1, name: 'prep' }))[0].n).toBe(8);
    await expect(st.rows(da, { name: 'prep' })).rejects.toThrow('no binding for :n');
    await da.transaction(async (trx) => {
      await trx('things').insert({ name: 'intrx', n: 1 });
      expect(await st.rows(trx, { n: 0, name: 'intrx' })).toHaveLength(1);
      expect(await st.rows(da, { n: 0, name: 'intrx' })).toHaveLength(0);
    });
    expect(await st.rows(da, { n: 0, name: 'intrx' })).toHaveLength(1);
  });

  it('lets replicas migrate at the same time: one applies, the others wait and find nothing to do', async () => {
    const c = uniqueName('dbr');
    await ensureSchema({ url: url(), schema: c, role: false });
    const replicas = [0, 1, 2].map(() => createDb({ url: url(), schema: c, role: false }));
    try {
      await Promise.all(replicas.map((r) => migrate(r, c, migrations)));
      const applied = await replicas[0]('knex_migrations').select('name');
      expect(applied).toEqual([{ name: '20261122000001_create_things' }]);
    } finally {
      await Promise.all(replicas.map((r) => r.destroy()));
      await dropSchema({ url: url(), schema: c, role: false });
    }
  });

  it('rolls every migration back', async () => {
    const c = uniqueName('dbc');
    await ensureSchema({ url: url(), schema: c, role: false });
    const dc = createDb({ url: url(), schema: c, role: false });
    try {
      await migrate(dc, c, migrations);
      await rollbackAll(dc, c, migrations);
      const r = await dc.raw("select to_regclass('things') as t");
      expect(r.rows[0].t).toBeNull();
    } finally {
      await dc.destroy();
      await dropSchema({ url: url(), schema: c, role: false });
    }
  });
});
