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

const NAMED = /(::)|:([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * A statement Postgres parses and plans once per pooled connection, then only binds and executes
 * (what knex cannot do): for the few statements on a hot path, where parsing and planning cost more
 * than running. Written with knex's `:name` placeholders (`::type` casts are left alone; no `:word`
 * inside a string literal); the text
 * must name its columns (never `*`), so that a migration adding a column on another replica cannot
 * change a prepared statement's result type. Inside a transaction it runs through the transaction
 * (unprepared), so it sees and joins the transaction's work.
 */
export class PreparedStatement {
  /** Postgres-side name: derived from the text, so two different texts never share one. */
  readonly name: string;
  readonly text: string;
  private readonly params: string[] = [];

  constructor(readonly sql: string) {
    this.text = sql.replace(NAMED, (whole: string, cast: string | undefined, param: string | undefined) => {
      if (cast) return whole;
      let i = this.params.indexOf(param!);
      if (i < 0) i = this.params.push(param!) - 1;
      return `$${i + 1}`;
    });
    this.name = `anvil_${createHash('sha256').update(this.text).digest('hex').slice(0, 24)}`;
  }

  /** Runs the statement with `bindings` (every placeholder must have one) and returns its rows. */
  async rows<T>(db: Db, bindings: Record<string, unknown>): Promise<T[]> {
    const values = this.params.map((p) => {
      if (!(p in bindings)) throw new Error(`no binding for :${p}`);
      const v = bindings[p];
      return v === undefined ? null : v;
    });
    if ((db as Knex.Transaction).isTransaction) return ((await db.raw(this.sql, bindings as Knex.ValueDict)) as QueryResult).rows as T[];
    const client = db.client as unknown as PooledClient;
    const conn = await client.acquireConnection();
    try {
      return (await conn.query({ name: this.name, text: this.text, values })).rows as T[];
    } finally {
      await client.releaseConnection(conn);
    }
  }
}
