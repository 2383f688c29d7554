import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { QueryResult } from 'pg';

/** A knex instance or a transaction (the same union as `Db`). */
type Db = Knex | Knex.Transaction;

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<QueryResult>;
}

interface PooledClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(conn: PgConnection): Promise<void>;
}

/** SQL with `$n` placeholders and their values, as knex's `toSQL().toNative()` gives it. */
export interface NativeQuery {
  sql: string;
  bindings: readonly unknown[];
}

/**
 * The Postgres name of the prepared statement for an SQL text: `<owner>_<digest of the text>`, so one
 * text always has one name and two texts never share one (node-pg refuses a known name with
 * another text; Postgres keeps each name per connection).
 */
export function statementName(text: string, owner = 'anvil'): string {
  return `${owner}_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
}

/**
 * A prepared statement is what Postgres parses and plans once per pooled connection, then only
 * binds and executes: for the few statements on a hot path, where planning costs more than
 * running (planning the joined project/group reads was five times their execution). Only for
 * texts that do not vary with the data (no IN lists of variable length), with explicit column
 * lists, never `*`: a column added by a migration on another replica would otherwise fail the
 * cached statement ("cached plan must not change result type").
 *
 * `prepared(q)` marks a knex query as one, named by `statementName`; knex runs it as usual (in a
 * transaction through it; its `query` events and `first()` as always). Never on a builder handed
 * to `paginate`: its clones (the count query) would carry the name with another text.
 */
export function prepared<Q extends { toSQL(): { sql: string }; options(o: Readonly<Record<string, unknown>>): unknown }>(q: Q, owner?: string): Q {
  q.options({ name: statementName(q.toSQL().sql, owner) });
  return q;
}

/** Runs a named statement on a connection of `db`'s pool and returns its rows. */
async function onPooledConnection<T>(db: Knex, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = db.client as unknown as PooledClient;
  const conn = await client.acquireConnection();
  try {
    return (await conn.query({ name, text, values })).rows as T[];
  } finally {
    await client.releaseConnection(conn);
  }
}

/**
 * Runs `query` (a knex query, or SQL with `$n` placeholders) as a prepared statement (see
 * `prepared`) straight on a pooled connection, without knex's per-query work, and returns its
 * rows. It takes its own connection: never inside a transaction.
 */
export async function queryPrepared<T>(db: Knex, query: Knex.QueryBuilder | Knex.Raw | NativeQuery, owner?: string): Promise<T[]> {
  const native = 'toSQL' in query ? query.toSQL().toNative() : query;
  return onPooledConnection<T>(db, statementName(native.sql, owner), native.sql, native.bindings as unknown[]);
}

const NAMED = /(::)|:([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * A prepared statement (see `prepared`) written once with knex's `:name` placeholders (`::type`
 * casts are left alone; no `:word` inside a string literal). Outside a transaction it runs as
 * `queryPrepared` does; inside one it runs through the transaction (unprepared), so it sees and
 * joins the transaction's work.
 */
export class PreparedStatement {
  /** Postgres-side name: `statementName` of the text. */
  readonly name: string;
  /** The text with `$n` placeholders, one per distinct `:name`. */
  readonly text: string;
  private readonly params: string[] = [];

  constructor(readonly sql: string) {
    this.text = sql.replace(NAMED, (whole: string, cast: string | undefined, param: string | undefined) => {
      if (cast) return whole;
      let i = this.params.indexOf(param!);
      if (i < 0) i = this.params.push(param!) - 1;
      return `$${i + 1}`;
    });
    this.name = statementName(this.text);
  }

  /** Runs the statement with `bindings` (every placeholder must have one) and returns its rows. */
  async rows<T>(db: Db, bindings: Record<string, unknown>): Promise<T[]> {
    const values = this.params.map((p) => {
      if (!(p in bindings)) throw new Error(`no binding for :${p}`);
      const v = bindings[p];
      return v === undefined ? null : v;
    });
    if ((db as Knex.Transaction).isTransaction) return ((await db.raw(this.sql, bindings as Knex.ValueDict)) as QueryResult).rows as T[];
    return onPooledConnection<T>(db, this.name, this.text, values);
  }
}
