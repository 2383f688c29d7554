import { createDb, dropSchema, ensureSchema, Knex, prepared, PreparedStatement, queryPrepared, statementName } from '../src';

// Plain env reads (not @anvil/testing, which depends on this lib): global setup sets these.
const url = () => process.env.TEST_DATABASE_URL as string;
const schema = `t_prep_${process.env.ANVIL_TEST_RUN ?? 'local'}_${Math.random().toString(36).slice(2, 8)}`;

/** Names of the statements prepared on the one connection of `db`. */
async function preparedOn(db: Knex): Promise<string[]> {
  return (await db.raw('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((r: { name: string }) => r.name);
}

describe('prepared statements', () => {
  // one connection: what is prepared on it can be read back
  let db: Knex;

  beforeAll(async () => {
    await ensureSchema({ url: url(), schema });
    db = createDb({ url: url(), schema, pool: { min: 0, max: 1 } });
    await db.schema.createTable('things', (t) => {
      t.increments('id');
      t.string('name').notNullable();
      t.integer('n');
    });
    await db('things').insert([{ name: 'a', n: 1 }, { name: 'b', n: 2 }, { name: 'c', n: 3 }]);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema({ url: url(), schema });
  });

  describe('statementName', () => {
    it('is the owner and a digest of the text: one name per text, another for another text', () => {
      const text = 'SELECT id FROM things WHERE n = $1';
      expect(statementName(text)).toMatch(/^anvil_[A-Za-z0-9_-]{22}$/);
      expect(statementName(text, 'identity')).toMatch(/^identity_/);
      expect(statementName(text)).toBe(statementName(text));
      expect(statementName(`${text} `)).not.toBe(statementName(text));
      expect(new PreparedStatement('SELECT id FROM things WHERE n = :n').name).toBe(statementName(text));
    });
  });

  describe('prepared(q)', () => {
    it('runs a knex query as a named statement, prepared on the connection, with knex’s results and events', async () => {
      const names: (string | undefined)[] = [];
      const listen = (q: { options?: { name?: string } }) => names.push(q.options?.name);
      db.on('query', listen);
      try {
        const q = () => db('things').select('id', 'name').where('n', '>=', 2).orderBy('id');
        expect((await prepared(q(), 'svc')).map((r: { name: string }) => r.name)).toEqual(['b', 'c']);
        expect(await prepared(db('things').select('name').where({ n: 1 }).first(), 'svc')).toEqual({ name: 'a' });
        const again = q();
        await prepared(again, 'svc');
        expect(names[0]).toBe(statementName(again.toSQL().sql, 'svc'));
        expect(names[2]).toBe(names[0]);
        expect(names[1]).not.toBe(names[0]);
      } finally {
        db.off('query', listen);
      }
      expect(await preparedOn(db)).toEqual(expect.arrayContaining([names[0], names[1]]));
    });

    it('runs inside a transaction through it, seeing its uncommitted rows', async () => {
      const work = db.transaction(async (trx) => {
        await trx('things').insert({ name: 'trx', n: 9 });
        expect(await prepared(trx('things').select('name').where({ n: 9 }), 'svc')).toEqual([{ name: 'trx' }]);
        throw new Error('roll back');
      });
      await expect(work).rejects.toThrow('roll back');
      expect(await db('things').where({ n: 9 })).toEqual([]);
    });
  });

  describe('queryPrepared', () => {
    it('runs a knex builder, a knex raw and $n SQL as named statements and returns their rows', async () => {
      const builder = db('things').select('name').where('n', '<', 3).orderBy('id');
      expect(await queryPrepared(db, builder)).toEqual([{ name: 'a' }, { name: 'b' }]);
      const raw = db.raw('SELECT name FROM things WHERE n = ANY(:ns) ORDER BY id', { ns: [1, 3] });
      expect(await queryPrepared(db, raw)).toEqual([{ name: 'a' }, { name: 'c' }]);
      for (let n = 1; n <= 3; n++) expect(await queryPrepared(db, { sql: 'SELECT name FROM things WHERE n = $1', bindings: [n] })).toEqual([{ name: 'abc'[n - 1] }]);
      expect(await preparedOn(db)).toEqual(expect.arrayContaining([
        statementName(builder.toSQL().toNative().sql),
        statementName(raw.toSQL().toNative().sql),
        statementName('SELECT name FROM things WHERE n = $1'),
      ]));
    });
  });
});
