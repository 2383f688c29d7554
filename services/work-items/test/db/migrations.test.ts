import { migrate, rollbackAll } from '@anvil/db';
import type { TestService } from '@anvil/testing';
import { migrations } from '../../migrations';
import { startWorkItems } from '../support/world';

describe('work-items migrations', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startWorkItems();
  });
  afterAll(() => svc?.stop());

  const tables = async () => (await svc.deps.db.raw('select table_name from information_schema.tables where table_schema = ? order by 1', [svc.deps.schema])).rows.map((r: { table_name: string }) => r.table_name);

  it('roll back completely and apply again', async () => {
    expect(await tables()).toEqual(expect.arrayContaining(['issues', 'issue_labels', 'labels', 'milestones', 'users', 'projects', 'memberships', 'notes', 'todos', 'merge_requests', 'outbox', 'inbox']));
    await rollbackAll(svc.deps.db, svc.deps.schema, migrations);
    expect((await tables()).filter((t: string) => !t.startsWith('knex_'))).toEqual([]);
    await migrate(svc.deps.db, svc.deps.schema, migrations);
    expect(await tables()).toContain('issues');
  });
});
