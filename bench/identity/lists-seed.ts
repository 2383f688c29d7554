/**
 * Seeds the identity list benchmark: through the API (the gateway) the caller `bencher` with a
 * personal access token; then, straight into identity's schema with `generate_series`, `users`
 * users (each with a personal namespace) and `groups` top-level groups (a fifth public, a fifth
 * internal, the rest private), the caller a member of 50 private ones; then `VACUUM ANALYZE`.
 */
import { createDb } from '@anvil/db';
import type { Fleet } from '@anvil/testing';
import { api } from '../support/fleet-api';

/** What the scenarios read. */
export interface ListsSeeded {
  token: string;
  counts: { users: number; groups: number };
}

/** Seeds `users` users and `groups` groups into the fleet's identity schema. */
export async function seedLists(fleet: Fleet, databaseUrl: string, users: number, groups: number): Promise<ListsSeeded> {
  const caller = await api(fleet, fleet.adminToken, 'POST', '/users', { username: 'bencher', name: 'Bencher', email: 'bencher@example.com', password: 'bench-password-1', skip_confirmation: true });
  const token = (await api(fleet, fleet.adminToken, 'POST', `/users/${caller.id}/personal_access_tokens`, { name: 'bench', scopes: ['api'] })).token as string;
  const db = createDb({ url: databaseUrl, schema: fleet.schemas.identity, pool: { min: 1, max: 2 } });
  try {
    await db.raw(`INSERT INTO users (username, email, name, password_digest, confirmed_at, created_at)
      SELECT 'bu' || i, 'bu' || i || '@example.com', 'Bench User ' || i, NULL, now(), now() - (i * interval '1 minute') FROM generate_series(1, ?) i`, [users]);
    await db.raw(`INSERT INTO namespaces (kind, name, path, full_path, owner_id, visibility)
      SELECT 'user', name, username, username, id, 'public' FROM users WHERE username LIKE 'bu%'`);
    await db.raw(`INSERT INTO namespaces (kind, name, path, full_path, visibility)
      SELECT 'group', 'Bench Group ' || i, 'bg' || i, 'bg' || i, CASE WHEN i % 5 = 0 THEN 'public' WHEN i % 5 = 1 THEN 'internal' ELSE 'private' END
      FROM generate_series(1, ?) i`, [groups]);
    await db.raw(`UPDATE namespaces SET traversal_ids = ARRAY[id] WHERE traversal_ids = '{}'`);
    await db.raw(`INSERT INTO members (source_type, source_id, user_id, access_level)
      SELECT 'Namespace', n.id, ?, 30 FROM namespaces n WHERE n.kind = 'group' AND n.visibility = 'private' ORDER BY n.id LIMIT 50`, [caller.id]);
    for (const t of ['users', 'namespaces', 'members']) await db.raw(`VACUUM ANALYZE ${t}`);
  } finally {
    await db.destroy();
  }
  return { token, counts: { users, groups } };
}
