/**
 * Typed environment configuration. Every value is read once, validated, and a bad value fails fast
 * with a message naming the variable, what it holds and what was expected.
 */

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

interface Field<T> {
  readonly kind: string;
  parse(raw: string | undefined, name: string): T;
}

function field<T>(kind: string, parse: (raw: string | undefined, name: string) => T): Field<T> {
  return { kind, parse };
}

function required(name: string, kind: string): never {
  throw new ConfigError(`${name} is required (${kind})`);
}

function bad(name: string, raw: string, expected: string): never {
  throw new ConfigError(`${name}=${JSON.stringify(raw)} is invalid: expected ${expected}`);
}

/** A string; `def` undefined makes it required, `null` makes it optional. */
export function str(def?: string): Field<string>;
export function str(def: null): Field<string | undefined>;
export function str(def?: string | null): Field<string | undefined> {
  return field('string', (raw, name) => {
    if (raw === undefined || raw === '') return def === undefined ? required(name, 'string') : (def ?? undefined);
    return raw;
  });
}

/** Values the repository ships as examples: never accepted as a real secret. */
const PLACEHOLDER = /change-?me|changeit|placeholder|^(secret|password|example|test|admin|anvil)$/i;

/** Whether `value` is a placeholder a deployment must replace (`change-me`, the examples in deploy/). */
export function isPlaceholderSecret(value: string): boolean {
  return PLACEHOLDER.test(value.trim());
}

/**
 * A secret: optional here (the process says when it needs one), but when given at least `min`
 * characters and no placeholder. The message never repeats the value.
 */
export function secret(min = 16): Field<string | undefined> {
  return field('secret', (raw, name) => {
    if (raw === undefined || raw === '') return undefined;
    if (isPlaceholderSecret(raw)) throw new ConfigError(`${name} is a placeholder (such as change-me): set a real secret`);
    if (raw.trim().length < min) throw new ConfigError(`${name} is too short: a secret needs at least ${min} characters`);
    return raw;
  });
}

/** An integer within [min, max]. */
export function int(def?: number, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Field<number> {
  return field('integer', (raw, name) => {
    if (raw === undefined || raw === '') return def === undefined ? required(name, 'integer') : def;
    if (!/^-?\d+$/.test(raw.trim())) bad(name, raw, 'an integer');
    const n = Number(raw);
    if (n < min || n > max) bad(name, raw, `an integer from ${min} to ${max}`);
    return n;
  });
}

/** A port number 0..65535. */
export function port(def?: number): Field<number> {
  return int(def, 0, 65535);
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

/** A boolean: 1/true/yes/on or 0/false/no/off, any case. */
export function bool(def?: boolean): Field<boolean> {
  return field('boolean', (raw, name) => {
    if (raw === undefined || raw === '') return def === undefined ? required(name, 'boolean') : def;
    const v = raw.trim().toLowerCase();
    if (TRUE.includes(v)) return true;
    if (FALSE.includes(v)) return false;
    return bad(name, raw, 'one of true/false/1/0/yes/no/on/off');
  });
}

/** A URL whose protocol is one of `protocols`; `null` default makes it optional. */
export function url(protocols: string[], def?: string | null): Field<string | undefined> {
  return field('url', (raw, name) => {
    if (raw === undefined || raw === '') return def === undefined ? required(name, 'url') : (def ?? undefined);
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return bad(name, raw, `a URL (${protocols.join(', ')})`);
    }
    if (!protocols.includes(u.protocol.replace(/:$/, ''))) bad(name, raw, `a URL with protocol ${protocols.join(' or ')}`);
    if (u.password && isPlaceholderSecret(decodeURIComponent(u.password))) throw new ConfigError(`${name} has a placeholder password (such as change-me): set a real one`);
    return raw;
  });
}

/** One of a fixed set of strings. */
export function oneOf<T extends string>(values: readonly T[], def?: T): Field<T> {
  return field('enum', (raw, name) => {
    if (raw === undefined || raw === '') return def === undefined ? required(name, values.join('|')) : def;
    if (!(values as readonly string[]).includes(raw)) bad(name, raw, `one of ${values.join(', ')}`);
    return raw as T;
  });
}

/** A byte size: a plain number or a number with K, M, G suffix (binary), e.g. `512M`. */
export function bytes(def?: number): Field<number> {
  return field('bytes', (raw, name) => {
    if (raw === undefined || raw === '') return def === undefined ? required(name, 'size') : def;
    const m = /^(\d+)\s*([kmgt]?)i?b?$/i.exec(raw.trim());
    if (!m) bad(name, raw, 'a size such as 1048576, 512K, 100M or 5G');
    const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m![2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
    return Number(m![1]) * mult;
  });
}

export type Schema = Record<string, Field<unknown>>;
export type ConfigOf<S extends Schema> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/**
 * Reads every variable of the schema from `env` (default `process.env`). Collects all problems and
 * throws one ConfigError listing them, so a bad deployment says everything that is wrong at once.
 */
export function loadConfig<S extends Schema>(schema: S, env: Env = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, f] of Object.entries(schema)) {
    try {
      out[name] = f.parse(env[name], name);
    } catch (e) {
      if (e instanceof ConfigError) problems.push(e.message);
      else throw e;
    }
  }
  if (problems.length) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return out as ConfigOf<S>;
}

/** The names a schema reads: deploy manifests are checked against these. */
export function variableNames(schema: Schema): string[] {
  return Object.keys(schema);
}

/**
 * The settings every service process shares. Each service adds its own on top
 * (`{...serviceSchema, ...}`), so `variableNames` of the merged schema is what it reads.
 */
export const serviceSchema = {
  DATABASE_URL: url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/postgres'),
  AMQP_URL: url(['amqp', 'amqps', 'memory'], 'memory://'),
  HOST: str('127.0.0.1'),
  PORT: port(0),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
  GATEWAY_PUBLIC_KEY: secret(32),
  INTERNAL_API_TOKEN: secret(),
  IDENTITY_URL: url(['http', 'https'], 'http://127.0.0.1:7101'),
  STORAGE_DRIVER: oneOf(['local', 's3'] as const, 'local'),
  STORAGE_DIR: str('.data/files'),
  /**
   * Local storage: an object is on disk (its bytes and its name) before a put or move resolves, as a
   * commit is before Postgres acknowledges it. `false` trades that for speed: a power loss may then
   * leave recorded files empty or missing.
   */
  STORAGE_FSYNC: bool(true),
  S3_ENDPOINT: url(['http', 'https'], null),
  S3_BUCKET: str('anvil'),
  S3_REGION: str('us-east-1'),
  S3_ACCESS_KEY_ID: str(null),
  S3_SECRET_ACCESS_KEY: secret(6),
  S3_FORCE_PATH_STYLE: bool(true),
  PUBLIC_URL: url(['http', 'https'], 'http://127.0.0.1:8080'),
  /**
   * The most connections this process opens to Postgres (its pool, the LISTEN connections included).
   * Each service sets its own default so two replicas of every process fit `max_connections = 100`
   * (the README's budget table).
   */
  DB_POOL_MAX: int(5, 1, 100),
  /**
   * `DATABASE_URL` is a PgBouncer in transaction pooling mode: no named prepared statements, no
   * session state; LISTEN, migrations and session locks use `DATABASE_DIRECT_URL`.
   */
  DB_PGBOUNCER: bool(false),
  /** Postgres itself (not PgBouncer), as the service's login: required with `DB_PGBOUNCER`. */
  DATABASE_DIRECT_URL: url(['postgres', 'postgresql'], null),
  /** Overrides the service's Postgres schema name (several environments in one database). */
  DB_SCHEMA: str(null),
  /** Prefix of this service's queue names (several environments on one broker). */
  QUEUE_PREFIX: str(''),
  /** The topic exchange events travel on. */
  EVENTS_EXCHANGE: str('anvil.events'),
  /**
   * What this process runs: `all` (HTTP and the event consumers, embedded and single-process),
   * `api` (HTTP only; another deployment consumes) or `worker` (the consumers, with HTTP for probes).
   */
  ROLE: oneOf(['all', 'api', 'worker'] as const, 'all'),
  /** How long published outbox rows and applied inbox rows are kept before the hourly prune deletes them. */
  EVENTS_RETENTION_HOURS: int(168, 1),
  /** On SIGTERM: how long (ms) requests in flight may take to finish before their connections are cut. */
  SHUTDOWN_GRACE_MS: int(25_000, 0),
};
