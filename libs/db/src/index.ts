import knexFactory, { Knex } from 'knex';
import { ConflictError, HttpError, UnprocessableError, ValidationError } from '@anvil/http';

export type { Knex };
export { type NativeQuery, prepared, PreparedStatement, queryPrepared, statementName } from './prepared';
/** A knex instance or a transaction: stores take this so callers choose the transaction. */
export type Db = Knex | Knex.Transaction;

/** One migration of a service: a name (`YYYYMMDDHHMMSS_verb_noun`), up and down. */
export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`invalid schema or role name: ${name}`);
  return `"${name}"`;
}

export interface DbOptions {
  url: string;
  schema: string;
  /** Run as a role named after the schema (created NOLOGIN, granted to the connecting user), so a
   * cross-schema read is "permission denied". Default true. */
  role?: boolean;
  pool?: { min?: number; max?: number };
  /**
   * Plan every query without parallel workers (`max_parallel_workers_per_gather = 0`): for pools
   * serving many short requests, where launching workers for a query the planner overestimates
   * costs more (tens of ms) than the query itself. Default false.
   */
  serialQueries?: boolean;
  /**
   * Extensions `ensureSchema` creates when missing and the connecting user may (trusted ones such as
   * `pg_trgm` need only the CREATE privilege on the database, which creating the schema needs too);
   * where it may not, a database owner creates them, or the migrations go without what needs them.
   */
  extensions?: string[];
}

/** Creates the schema (and its owning role) if missing. Needs a user that may create them. */
export async function ensureSchema(opts: DbOptions): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: opts.url, pool: { min: 0, max: 1 } });
  try {
    const s = ident(opts.schema);
    await admin.raw('SELECT pg_advisory_lock(hashtext(?))', [`anvil-schema-${opts.schema}`]);
    try {
      if (opts.role !== false) {
        const exists = await admin.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [opts.schema]);
        if (!exists.rows.length) await admin.raw(`CREATE ROLE ${s} NOLOGIN`);
        await admin.raw(`GRANT ${s} TO CURRENT_USER`).catch(() => undefined);
        await admin.raw(`CREATE SCHEMA IF NOT EXISTS ${s} AUTHORIZATION ${s}`);
      } else {
        await admin.raw(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      }
    } finally {
      await admin.raw('SELECT pg_advisory_unlock(hashtext(?))', [`anvil-schema-${opts.schema}`]);
    }
    for (const ext of opts.extensions ?? []) await ensureExtension(admin, ext);
  } finally {
    await admin.destroy();
  }
}

/** Creates an extension unless it exists, under a lock (concurrent creations collide); leaves it alone when not allowed. */
async function ensureExtension(admin: Knex, name: string): Promise<void> {
  const ext = ident(name);
  await admin.raw('SELECT pg_advisory_lock(hashtext(?))', [`anvil-extension-${name}`]);
  try {
    const exists = await admin.raw('SELECT 1 FROM pg_extension WHERE extname = ?', [name]);
    if (!exists.rows.length) await admin.raw(`CREATE EXTENSION IF NOT EXISTS ${ext}`).catch(() => undefined);
  } finally {
    await admin.raw('SELECT pg_advisory_unlock(hashtext(?))', [`anvil-extension-${name}`]);
  }
}

/** The schema an extension is installed in, or null when it is not installed. */
export async function extensionSchema(db: Knex | Knex.Transaction, name: string): Promise<string | null> {
  const r = await db.raw('SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ?', [name]);
  return (r.rows[0] as { nspname: string } | undefined)?.nspname ?? null;
}

/** Drops a schema and its role (tests). */
export async function dropSchema(opts: DbOptions): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: opts.url, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`DROP SCHEMA IF EXISTS ${ident(opts.schema)} CASCADE`);
    if (opts.role !== false) await admin.raw(`DROP ROLE IF EXISTS ${ident(opts.schema)}`).catch(() => undefined);
  } finally {
    await admin.destroy();
  }
}

/** A knex bound to the service's schema: search_path set, and SET ROLE to the schema's role. */
export function createDb(opts: DbOptions): Knex {
  const s = ident(opts.schema);
  const setup = (opts.role !== false ? `SET ROLE ${s}; SET search_path TO ${s}` : `SET search_path TO ${s}`) + (opts.serialQueries ? '; SET max_parallel_workers_per_gather = 0' : '');
  return knexFactory({
    client: 'pg',
    connection: opts.url,
    searchPath: [opts.schema],
    pool: {
      min: opts.pool?.min ?? 0,
      max: opts.pool?.max ?? 10,
      afterCreate: (conn: { query(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => {
        conn.query(setup, (err) => done(err, conn));
      },
    },
  });
}

class ListSource implements Knex.MigrationSource<Migration> {
  constructor(private readonly list: Migration[]) {}
  async getMigrations() {
    return this.list;
  }
  getMigrationName(m: Migration) {
    return m.name;
  }
  async getMigration(m: Migration) {
    return { up: m.up, down: m.down };
  }
}

interface PgConn {
  query(sql: string, params: unknown[]): Promise<unknown>;
}

/**
 * Runs the service's migrations, keeping knex's migration tables in the service's schema. Replicas
 * starting together queue on a session advisory lock, so the losers wait and then find nothing to do
 * (instead of failing on knex's migration lock and crash-looping).
 */
export async function migrate(db: Knex, schema: string, migrations: Migration[]): Promise<void> {
  const conn = (await db.client.acquireConnection()) as PgConn;
  const key = `anvil-migrate-${schema}`;
  try {
    await conn.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    await db.migrate.latest({ schemaName: schema, tableName: 'knex_migrations', migrationSource: new ListSource(migrations) });
  } finally {
    await conn.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
    await db.client.releaseConnection(conn);
  }
}

/** Rolls back every migration (tests of `down`). */
export async function rollbackAll(db: Knex, schema: string, migrations: Migration[]): Promise<void> {
  await db.migrate.rollback({ schemaName: schema, tableName: 'knex_migrations', migrationSource: new ListSource(migrations) }, true);
}

interface PgError {
  code?: string;
  constraint?: string;
  column?: string;
  detail?: string;
  table?: string;
}

/**
 * Postgres SQLSTATEs → typed errors, so a duplicate is a 4xx and never a 500:
 * 23505 unique → 409, 23503 foreign key → 422, 23502 not null → 400 {field: ["can't be blank"]},
 * 22001 too long → 400 {field: ["is too long"]}, 22P02/22003/22007/22008 bad value → 400.
 * `messages` maps a constraint name to the error to use instead.
 */
export function translatePgError(err: unknown, messages: Record<string, () => HttpError> = {}): HttpError | undefined {
  const e = err as PgError;
  if (!e || typeof e.code !== 'string' || !/^[0-9A-Z]{5}$/.test(e.code)) return undefined;
  if (e.constraint && messages[e.constraint]) return messages[e.constraint]();
  switch (e.code) {
    case '23505':
      return new ConflictError(`${describe(e)} has already been taken`);
    case '23503':
      return new UnprocessableError(`${describe(e)} refers to a record that does not exist`);
    case '23502':
      return new ValidationError({ [e.column ?? 'base']: ["can't be blank"] });
    case '22001':
      return new ValidationError({ [e.column ?? 'base']: ['is too long'] });
    case '22P02':
    case '22003':
    case '22007':
    case '22008':
      return new ValidationError({ [e.column ?? 'base']: ['is invalid'] });
    case '23514':
      return new ValidationError({ [e.constraint ?? 'base']: ['is invalid'] });
    default:
      return undefined;
  }
}

function describe(e: PgError): string {
  const m = /Key \(([^)]+)\)/.exec(e.detail ?? '');
  const cols = m ? m[1].split(',').map((s) => s.trim()) : [];
  const name = cols.length ? cols[cols.length - 1] : 'value';
  return name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');
}

/** Whether an error is a unique violation (optionally of one constraint). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as PgError;
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}

/** Socket errors of a lost or refused database connection. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What the driver and the pool say when the connection is gone or none can be had. */
const CONNECTION_MESSAGES = /Connection terminated|connection is closed|Client has encountered a connection error|Client was closed|Timeout acquiring a connection|terminating connection|the database system is (starting up|shutting down|in recovery)/i;

/**
 * Whether an error says the database is unreachable rather than that a statement was wrong: a lost
 * or refused connection, a pool timeout, or SQLSTATE class 08 (connection), 53 (resources), 57
 * (operator intervention: shutdown, restart) or 58 (system). Work that meets one should be retried
 * later, not recorded as a failure of its data.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as PgError & { message?: string };
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (/^(08|53|57|58)/.test(code) || CONNECTION_CODES.has(code)) return true;
  return CONNECTION_MESSAGES.test(String(e.message ?? ''));
}
