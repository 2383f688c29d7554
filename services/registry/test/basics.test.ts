import { createDb, dropSchema, ensureSchema, migrate, rollbackAll } from '@anvil/db';
import type { ServiceDefinition } from '@anvil/runtime';
import { describeServiceBasics, testDatabaseUrl, uniqueName } from '@anvil/testing';
import { registryService } from '../src';
import { migrations } from '../migrations';

// The shared suite takes the untyped definition; the registry's config type is irrelevant to it.
describeServiceBasics(registryService as unknown as ServiceDefinition, { CONAN_JWT_SECRET: 'test-conan-secret' });

describe('registry migrations', () => {
  it('go up and all the way down again', async () => {
    const schema = uniqueName('registry_mig');
    await ensureSchema({ url: testDatabaseUrl(), schema });
    const db = createDb({ url: testDatabaseUrl(), schema });
    try {
      const tables = async () => (await db.raw('select table_name from information_schema.tables where table_schema = ? order by 1', [schema])).rows.map((r: { table_name: string }) => r.table_name);
      await migrate(db, schema, migrations);
      expect(await tables()).toEqual(expect.arrayContaining(['conan_packages', 'conan_recipe_revisions', 'conan_package_references', 'conan_package_revisions', 'conan_files', 'outbox', 'inbox']));
      await rollbackAll(db, schema, migrations);
      expect((await tables()).filter((t: string) => t.startsWith('conan_') || t === 'outbox' || t === 'inbox')).toEqual([]);
    } finally {
      await db.destroy();
      await dropSchema({ url: testDatabaseUrl(), schema });
    }
  });
});
