/**
 * Seeds an identity schema for the read benchmark with set-based SQL (seconds, not minutes):
 * users with personal namespaces and projects, top-level groups with two subgroups each, projects
 * in every group, and group and project memberships; then a bench user who is Developer of a
 * private project in a private subgroup, Reporter of that subgroup's parent, and member of a few
 * more groups and projects (so lists have pages to cut).
 */
import type { Knex } from '@anvil/db';
import type { Actor, GroupScope, ProjectScope } from '@anvil/auth';

/** What the benchmark reads. */
export interface Seeded {
  user: Actor;
  project: ProjectScope;
  group: GroupScope;
  counts: Record<string, number>;
}

const SETTINGS = '{"issues_access_level":"enabled","merge_method":"merge"}';

async function count(db: Knex, table: string): Promise<number> {
  return Number(((await db(table).count({ n: '*' }).first()) as { n: string }).n);
}

async function seedNamespaces(db: Knex, users: number, tops: number): Promise<void> {
  await db.raw(`INSERT INTO users (username, email, name, password_digest, confirmed_at)
    SELECT 'bu' || i, 'bu' || i || '@example.com', 'Bench User ' || i, NULL, now() FROM generate_series(1, ?) i`, [users]);
  await db.raw(`INSERT INTO namespaces (kind, name, path, full_path, owner_id, visibility)
    SELECT 'user', name, username, username, id, 'public' FROM users WHERE username LIKE 'bu%'`);
  await db.raw(`INSERT INTO namespaces (kind, name, path, full_path, visibility)
    SELECT 'group', 'Bench Group ' || i, 'bg' || i, 'bg' || i, CASE WHEN i % 5 = 0 THEN 'public' WHEN i % 5 = 1 THEN 'internal' ELSE 'private' END
    FROM generate_series(1, ?) i`, [tops]);
  await db.raw(`UPDATE namespaces SET traversal_ids = ARRAY[id] WHERE traversal_ids = '{}'`);
  await db.raw(`INSERT INTO namespaces (kind, name, path, full_path, parent_id, visibility, traversal_ids)
    SELECT 'group', t.name || ' sub ' || s, 'sub' || s, t.full_path || '/sub' || s, t.id, 'private', t.traversal_ids
    FROM namespaces t CROSS JOIN generate_series(1, 2) s WHERE t.kind = 'group' AND t.parent_id IS NULL`);
  await db.raw(`UPDATE namespaces SET traversal_ids = traversal_ids || id WHERE parent_id IS NOT NULL AND NOT (id = ANY(traversal_ids))`);
}

async function seedProjects(db: Knex, perGroup: number): Promise<void> {
  await db.raw(`INSERT INTO projects (name, path, namespace_id, visibility, creator_id, topics, settings)
    SELECT 'Project ' || i, 'p' || i, n.id, CASE WHEN n.visibility = 'private' THEN 'private' WHEN i % 2 = 0 THEN n.visibility ELSE 'private' END,
      1, ARRAY['t' || (i % 7)], ?::jsonb
    FROM namespaces n CROSS JOIN generate_series(1, ?) i WHERE n.kind = 'group'`, [SETTINGS, perGroup]);
  await db.raw(`INSERT INTO projects (name, path, namespace_id, visibility, creator_id, settings)
    SELECT 'Personal', 'personal', n.id, CASE WHEN n.id % 3 = 0 THEN 'public' ELSE 'private' END, n.owner_id, ?::jsonb
    FROM namespaces n WHERE n.kind = 'user' AND n.path LIKE 'bu%'`, [SETTINGS]);
  // spread creation and activity over two years, so orderings and their indexes mean something
  await db.raw(`UPDATE projects SET created_at = now() - (((id * 7919) % 730000) * interval '86.4 seconds'),
    last_activity_at = now() - (((id * 104729) % 730000) * interval '43.2 seconds')`);
  await db.raw(`UPDATE projects SET updated_at = created_at`);
}

async function seedMembers(db: Knex): Promise<void> {
  const groups = `SELECT array_agg(id ORDER BY id) AS ids FROM namespaces WHERE kind = 'group'`;
  await db.raw(`INSERT INTO members (source_type, source_id, user_id, access_level)
    SELECT DISTINCT ON (g.ids[1 + (u.id * 7 + k * 13) % cardinality(g.ids)], u.id) 'Namespace', g.ids[1 + (u.id * 7 + k * 13) % cardinality(g.ids)], u.id, (ARRAY[10, 20, 30, 40, 50])[1 + k % 5]
    FROM users u CROSS JOIN (${groups}) g CROSS JOIN generate_series(1, 5) k WHERE u.username LIKE 'bu%'`);
  await db.raw(`INSERT INTO members (source_type, source_id, user_id, access_level)
    SELECT 'Project', p.id, n.owner_id, 50 FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.kind = 'user'`);
  await db.raw(`INSERT INTO members (source_type, source_id, user_id, access_level)
    SELECT DISTINCT ON (p.id, u.id) 'Project', p.id, u.id, 30 FROM users u CROSS JOIN generate_series(1, 10) k
    JOIN projects p ON p.id = 1 + (u.id * 31 + k * 17) % (SELECT max(id) FROM projects)
    WHERE u.username LIKE 'bu%' ON CONFLICT DO NOTHING`);
}

async function benchUser(db: Knex): Promise<Seeded> {
  const [{ id }] = await db('users').insert({ username: 'bencher', email: 'bencher@example.com', name: 'Bencher', confirmed_at: db.fn.now() }).returning('id');
  const ns = await db('namespaces').insert({ kind: 'user', name: 'Bencher', path: 'bencher', full_path: 'bencher', owner_id: id, visibility: 'public' }).returning('id');
  await db('namespaces').where('id', ns[0].id).update({ traversal_ids: [ns[0].id] });
  const sub = await db('namespaces').where({ kind: 'group', visibility: 'private' }).whereNotNull('parent_id').orderBy('id').first();
  const parent = await db('namespaces').where({ id: sub.parent_id }).first();
  const project = await db('projects').where({ namespace_id: sub.id, visibility: 'private' }).orderBy('id').first();
  const some = (await db('namespaces').where('kind', 'group').whereNull('parent_id').orderBy('id').offset(3).limit(4).pluck('id')) as number[];
  const rows = [
    { source_type: 'Project', source_id: project.id, user_id: id, access_level: 30 },
    { source_type: 'Namespace', source_id: parent.id, user_id: id, access_level: 20 },
    ...some.map((g) => ({ source_type: 'Namespace', source_id: g, user_id: id, access_level: 30 })),
  ];
  await db('members').insert(rows);
  // a live database is vacuumed by autovacuum: flush the GIN pending list and gather statistics
  for (const t of ['users', 'namespaces', 'projects', 'members']) await db.raw(`VACUUM ANALYZE ${t}`);
  return {
    user: { id, username: 'bencher', name: 'Bencher', admin: false, state: 'active' },
    project: { id: project.id, path_with_namespace: `${sub.full_path}/${project.path}`, namespace_id: sub.id, group_id: sub.id, visibility: 'private', access_level: 30 },
    group: { id: parent.id, full_path: parent.full_path, parent_id: null, visibility: parent.visibility, access_level: 20 },
    counts: {},
  };
}

/** Seeds `db` (a fresh identity schema) at `scale` and returns the bench user and targets. */
export async function seed(db: Knex, scale = 1): Promise<Seeded> {
  await seedNamespaces(db, Math.round(2000 * scale), Math.round(100 * scale));
  await seedProjects(db, 20);
  await seedMembers(db);
  const s = await benchUser(db);
  for (const t of ['users', 'namespaces', 'projects', 'members']) s.counts[t] = await count(db, t);
  return s;
}
