import { createDb, dropSchema, ensureSchema, migrate, rollbackAll } from '@anvil/db';
import { testDatabaseUrl, uniqueName } from '@anvil/testing';
import { migrations } from '../migrations';

describe('identity migrations', () => {
  it('migrate up, down to nothing, and up again', async () => {
    const schema = uniqueName('identity_mig');
    const url = testDatabaseUrl();
    await ensureSchema({ url, schema, extensions: ['pg_trgm'] });
    const db = createDb({ url, schema });
    try {
      await migrate(db, schema, migrations);
      const tables = async () => (await db.raw('SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1', [schema])).rows.map((r: { table_name: string }) => r.table_name);
      expect(await tables()).toEqual(expect.arrayContaining(['users', 'personal_access_tokens', 'namespaces', 'projects', 'members', 'outbox', 'inbox']));
      const indexes = (await db.raw('SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = ?', [schema])).rows as { indexname: string; indexdef: string }[];
      const trigram = indexes.filter((i) => i.indexdef.includes('gin_trgm_ops')).map((i) => i.indexname).sort();
      expect(trigram).toEqual(['namespaces_groups_name_trgm_idx', 'namespaces_groups_path_trgm_idx', 'users_search_text_trgm_idx']);
      await rollbackAll(db, schema, migrations);
      expect((await tables()).filter((t: string) => !t.startsWith('knex_'))).toEqual([]);
      await migrate(db, schema, migrations);
      expect(await tables()).toContain('members');
    } finally {
      await db.destroy();
      await dropSchema({ url, schema });
    }
  });

  it('names every migration YYYYMMDDHHMMSS_verb_noun, in order', () => {
    const names = migrations.map((m) => m.name);
    for (const n of names) expect(n).toMatch(/^\d{14}_[a-z]+_[a-z_]+$/);
    expect([...names].sort()).toEqual(names);
  });
});
