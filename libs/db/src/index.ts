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
  /**
   * Run as the role named after the schema (`SET ROLE` on connect): for an administrative connection
   * reaching into one service's schema (tests, benchmarks, tools). A service connects as its own login
   * (`provisionService`) and passes false. Default true.
   */
  role?: boolean;
  pool?: { min?: number; max?: number };
  /**
   * Plan every query without parallel workers (`max_parallel_workers_per_gather = 0`): for pools
   * serving many short requests, where launching workers for a query the planner overestimates
   * costs more (tens of ms) than the query itself. Default false. With `pgbouncer` it is a setting of
   * the login (`ALTER ROLE … SET`, see `applyLoginSettings`), never a session's.
   */
  serialQueries?: boolean;
  /**
   * Extensions `ensureSchema` creates when missing and the connecting user may (trusted ones such as
   * `pg_trgm` need only the CREATE privilege on the database, which creating the schema needs too);
   * where it may not, a database owner creates them, or the migrations go without what needs them.
   */
  extensions?: string[];
  /**
   * Connections go through PgBouncer in transaction pooling mode: nothing is run on connect (no
   * session state: the login's `search_path` comes from `ALTER ROLE … SET`) and statements are never
   * named prepared statements (unnamed, parameterized instead). Default false.
   */
  pgbouncer?: boolean;
}

/** What `provisionService` needs: an administrative URL, the schema and the password of its login. */
export interface ProvisionOptions {
  /** A URL of a user that may create roles and schemas (the provisioning step's, never a service's). */
  adminUrl: string;
  /** The service's schema; its login role has the same name. */
  schema: string;
  /** The login's password (generated per deployment). */
  password: string;
  /** Plan the login's queries without parallel workers (see `DbOptions.serialQueries`); unset leaves the login's setting as it is (a service sets it on itself at start). */
  serialQueries?: boolean;
  /** Extensions the service's migrations use (e.g. `pg_trgm`), created by the administrator when missing. */
  extensions?: readonly string[];
}

/**
 * Extensions each service's migrations use, by service name. A service's login cannot create an
 * extension, so the provisioning step (the administrator) does; a service whose extension is missing
 * still starts and goes without what needs it.
 */
export const SERVICE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = { identity: ['pg_trgm'] };

/** One advisory lock serialises provisioning: concurrent GRANTs on one database fail otherwise. */
const PROVISION_LOCK = 'anvil-provision';

async function withAdmin<T>(url: string, fn: (admin: Knex) => Promise<T>): Promise<T> {
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 1, max: 1 } });
  try {
    await admin.raw('SELECT pg_advisory_lock(hashtext(?))', [PROVISION_LOCK]);
    try {
      return await fn(admin);
    } finally {
      await admin.raw('SELECT pg_advisory_unlock(hashtext(?))', [PROVISION_LOCK]).catch(() => undefined);
    }
  } finally {
    await admin.destroy();
  }
}

function quoteLiteral(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

/** `url` with its user and password replaced: the URL a service connects with. */
export function loginUrl(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/**
 * Creates (or updates) a service's database login, run with an administrative URL by the
 * provisioning step (embedded start, compose's `provision`, the Kubernetes Job, the tests): a
 * `LOGIN` role named after the schema with `password`, member of no other role, allowed to connect,
 * owning the schema (so it runs its own migrations) with nothing granted on it to PUBLIC, its
 * `search_path` set on the role (no `SET` on connect) and, with `serialQueries`, no parallel
 * workers. Idempotent. Returns the service's `DATABASE_URL` (the admin URL's host and database).
 */
export async function provisionService(opts: ProvisionOptions): Promise<string> {
  const s = ident(opts.schema);
  await withAdmin(opts.adminUrl, async (admin) => {
    const exists = await admin.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [opts.schema]);
    const pw = quoteLiteral(opts.password);
    if (!exists.rows.length) await admin.raw(`CREATE ROLE ${s} LOGIN NOINHERIT PASSWORD ${pw}`);
    else await admin.raw(`ALTER ROLE ${s} LOGIN NOINHERIT PASSWORD ${pw}`);
    // a role created by an older release (granted to the shared login) keeps no membership either way
    const granted = await admin.raw('SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = ?)', [opts.schema]);
    for (const row of granted.rows as Array<{ rolname: string }>) await admin.raw(`REVOKE ${ident(row.rolname)} FROM ${s}`);
    const db = (await admin.raw('SELECT current_database() AS d')).rows[0].d as string;
    const canConnect = (await admin.raw("SELECT has_database_privilege(?, current_database(), 'CONNECT') AS ok", [opts.schema])).rows[0].ok;
    if (!canConnect) await admin.raw(`GRANT CONNECT ON DATABASE "${db.replace(/"/g, '""')}" TO ${s}`);
    // Postgres 15 revokes CREATE on `public` from PUBLIC already; older releases grant it
    const publicCreate = (await admin.raw("SELECT has_schema_privilege(?, 'public', 'CREATE') AS ok", [opts.schema])).rows[0].ok;
    if (publicCreate) await admin.raw('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    // an administrator that is no superuser (a managed Postgres) must be a member to hand it a schema
    await admin.raw(`GRANT ${s} TO CURRENT_USER`).catch(() => undefined);
    await admin.raw(`CREATE SCHEMA IF NOT EXISTS ${s} AUTHORIZATION ${s}`);
    await admin.raw(`ALTER SCHEMA ${s} OWNER TO ${s}`);
    await admin.raw(`REVOKE ALL ON SCHEMA ${s} FROM PUBLIC`);
    await admin.raw(`ALTER ROLE ${s} SET search_path TO ${s}`);
    if (opts.serialQueries === true) await admin.raw(`ALTER ROLE ${s} SET max_parallel_workers_per_gather = 0`);
    else if (opts.serialQueries === false) await admin.raw(`ALTER ROLE ${s} RESET max_parallel_workers_per_gather`);
    for (const ext of opts.extensions ?? []) await ensureExtension(admin, ext);
  });
  return loginUrl(opts.adminUrl, opts.schema, opts.password);
}

/**
 * Session defaults a service's login sets on itself at start (a role may set its own): its
 * `search_path` and whether plans use parallel workers. New connections, through PgBouncer too,
 * then need no `SET`.
 */
export async function applyLoginSettings(db: Knex, schema: string, serialQueries: boolean): Promise<void> {
  const s = ident(schema);
  await db.raw(`ALTER ROLE CURRENT_USER SET search_path TO ${s}`);
  await db.raw(serialQueries ? 'ALTER ROLE CURRENT_USER SET max_parallel_workers_per_gather = 0' : 'ALTER ROLE CURRENT_USER RESET max_parallel_workers_per_gather');
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

/** Drops a schema and its role, a login's too (tests). `url` is an administrative URL. */
export async function dropSchema(opts: Pick<DbOptions, 'url' | 'schema' | 'role'>): Promise<void> {
  const s = ident(opts.schema);
  const admin = knexFactory({ client: 'pg', connection: opts.url, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  } finally {
    await admin.destroy();
  }
  if (opts.role === false) return;
  await withAdmin(opts.url, async (admin) => {
    const exists = await admin.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [opts.schema]);
    if (!exists.rows.length) return;
    // what it still owns or was granted (CONNECT, settings) goes first, then the role
    await admin.raw(`DROP OWNED BY ${s}`).catch(() => undefined);
    await admin.raw(`DROP ROLE IF EXISTS ${s}`).catch(() => undefined);
  });
}

interface PgClientLike {
  query(config: unknown, ...rest: unknown[]): unknown;
}

/** node-pg's `query` without statement names: PgBouncer (transaction mode) cannot keep them. */
function unnamedStatements(conn: PgClientLike): void {
  const query = conn.query.bind(conn);
  conn.query = (config: unknown, ...rest: unknown[]) => {
    if (config && typeof config === 'object' && 'name' in config && (config as { name?: unknown }).name) {
      const { name: _name, ...unnamed } = config as Record<string, unknown>;
      return query(unnamed, ...rest);
    }
    return query(config, ...rest);
  };
}

/**
 * A knex bound to the service's schema. On each new connection it sets the `search_path` (and with
 * `role`, `SET ROLE` to the schema's role); with `pgbouncer` it runs nothing and names no statements.
 */
export function createDb(opts: DbOptions): Knex {
  const s = ident(opts.schema);
  const setup = (opts.role !== false ? `SET ROLE ${s}; SET search_path TO ${s}` : `SET search_path TO ${s}`) + (opts.serialQueries ? '; SET max_parallel_workers_per_gather = 0' : '');
  return knexFactory({
    client: 'pg',
    connection: opts.url,
    ...(opts.pgbouncer ? {} : { searchPath: [opts.schema] }),
    pool: {
      min: opts.pool?.min ?? 0,
      max: opts.pool?.max ?? 10,
      afterCreate: (conn: PgClientLike & { query(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => {
        if (opts.pgbouncer) {
          unnamedStatements(conn);
          return done(null, conn);
        }
        conn.query(setup, (err: Error | null) => done(err, conn));
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
