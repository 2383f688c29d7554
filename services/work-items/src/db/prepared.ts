import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a read-only statement as a named prepared statement on a pooled connection: Postgres
 * plans each distinct statement once per connection (and switches to a generic plan), which
 * is most of the cost of the short queries the lists run. `query` is a knex query or SQL with
 * `$n` placeholders. Never call it inside a transaction (it takes its own connection).
 */
export async function queryPrepared<T>(db: Knex, query: Knex.QueryBuilder | Knex.Raw | { sql: string; bindings: readonly unknown[] }): Promise<T[]> {
  const native = 'toSQL' in query ? query.toSQL().toNative() : query;
  const name = `wi_${createHash('sha1').update(native.sql).digest('hex').slice(0, 20)}`;
  const client = db.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> };
  const conn = await client.acquireConnection();
  try {
    const r = await conn.query({ name, text: native.sql, values: native.bindings as unknown[] });
    return r.rows as T[];
  } finally {
    await client.releaseConnection(conn);
  }
}
