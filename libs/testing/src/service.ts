import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Actor, CONTEXT_HEADER, ContextSigner, generateContextKeys, GroupScope, ProjectScope, RequestContext, type TransferFields } from '@anvil/auth';
import { dropSchema, provisionService } from '@anvil/db';
import { bootService, RunningService, ServiceDefinition } from '@anvil/runtime';

const keys = generateContextKeys();
/** One signing key pair per test worker; services under test trust its public key. */
export const testKeys = keys;
export const testSigner = new ContextSigner(keys.privateKey);
export const TEST_INTERNAL_TOKEN = `test-internal-${randomBytes(8).toString('hex')}`;

/** The database URL chosen by global setup (real Postgres, or embedded). */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run tests through jest (global setup)');
  return url;
}

/** `amqp://...` when RabbitMQ is reachable, else `memory://`. */
export function testAmqpUrl(): string {
  return process.env.TEST_AMQP_URL ?? 'memory://';
}

/** A schema name unique to this run, file and call: CI's Postgres is shared and persistent. */
export function uniqueName(prefix: string): string {
  const run = (process.env.ANVIL_TEST_RUN ?? 'local').replace(/[^a-z0-9]/g, '').slice(0, 12);
  return `t_${prefix.replace(/[^a-z0-9_]/g, '_')}_${run}_${randomBytes(3).toString('hex')}`.slice(0, 60);
}

/** What a signed test request carries: the caller and, for scoped routes, the resolved project or group. */
export interface As {
  user?: Actor | null;
  scopes?: string[];
  auth?: RequestContext['auth'];
  project?: ProjectScope;
  group?: GroupScope;
  impersonator?: number;
  /** The personal access token's id (PAT, Basic username:PAT, or a registry JWT). */
  token_id?: number;
  /** Accelerated-transfer fields, as the gateway sets them (`TransferFields` in @anvil/auth). */
  transfer?: TransferFields['transfer'];
  send_file?: true;
}

export interface TestService<C = Record<string, unknown>> extends RunningService<C> {
  /** Requests signed like the gateway would sign them for `as`. */
  as(as: As): SignedClient;
  /** Requests with no context header at all (a caller bypassing the gateway). */
  raw(): request.Agent;
}

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head';
export type SignedClient = Record<Method, (path: string) => request.Test>;

export const TEST_BASE_URL = 'http://127.0.0.1:8080';

/** Signs a request for `method path` the way the gateway does, for the service named `aud`. */
export function signFor(method: string, path: string, as: As, aud: string): string {
  return testSigner.sign({
    rid: randomBytes(8).toString('hex'),
    m: method.toUpperCase(),
    p: path,
    aud,
    base: TEST_BASE_URL,
    user: as.user ?? null,
    scopes: as.scopes ?? (as.user ? ['api'] : []),
    auth: as.auth ?? (as.user ? 'pat' : 'none'),
    project: as.project,
    group: as.group,
    impersonator: as.impersonator,
    token_id: as.token_id,
    ...(as.transfer ? { transfer: as.transfer } : {}),
    ...(as.send_file ? { send_file: as.send_file } : {}),
  } as Parameters<typeof testSigner.sign>[0]);
}

export interface StartOptions {
  /** Use RabbitMQ when reachable (default: in-process bus). */
  amqp?: boolean;
  /** Settings; a `DATABASE_URL` here replaces the provisioned login's URL (same login, another route to it, e.g. PgBouncer). */
  env?: Record<string, string>;
  /** The fresh schema (and login) name to use (default: `uniqueName` of the service). */
  schema?: string;
  /** The login's password (default: generated). */
  password?: string;
}

/** A fresh login's password: generated, long enough for `libs/config`'s checks. */
export function testPassword(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Starts `def` on a fresh unique schema, as a fresh login owning it (provisioned as the provisioning
 * step does), with a temp storage dir, trusting the test signing key. `stop()` stops it and drops
 * the schema and its login.
 */
export async function startService<C>(def: ServiceDefinition<C>, opts: StartOptions = {}): Promise<TestService<C>> {
  const schema = opts.schema ?? uniqueName(def.name.replace(/-/g, '_'));
  const login = await provisionService({ adminUrl: testDatabaseUrl(), schema, password: opts.password ?? testPassword(), serialQueries: def.serialQueries, extensions: def.extensions });
  const dir = mkdtempSync(path.join(tmpdir(), `anvil-${def.name}-`));
  const env = {
    DATABASE_URL: login,
    AMQP_URL: opts.amqp ? testAmqpUrl() : 'memory://',
    GATEWAY_PUBLIC_KEY: keys.publicKey,
    INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN,
    STORAGE_DIR: dir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: TEST_BASE_URL,
    // stopping a test service cuts what is left at once; shutdown tests set a grace
    SHUTDOWN_GRACE_MS: '0',
    ...opts.env,
  };
  let svc: RunningService<C>;
  try {
    svc = await bootService(def, { env, schema, port: 0, queuePrefix: `${schema}.` });
  } catch (e) {
    await dropSchema({ url: testDatabaseUrl(), schema }).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const as = (a: As): SignedClient => {
    const make = (m: Method) => (p: string) => request(svc.server)[m](p).set(CONTEXT_HEADER, signFor(m, p, a, def.name));
    return { get: make('get'), post: make('post'), put: make('put'), delete: make('delete'), patch: make('patch'), head: make('head') };
  };
  return {
    ...svc,
    as,
    raw: () => request.agent(svc.server),
    async stop() {
      await svc.stop();
      await dropSchema({ url: testDatabaseUrl(), schema });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let nextId = 1000;
/** A user actor for contexts (ids are unique per worker). */
export function actor(username: string, opts: Partial<Actor> = {}): Actor {
  return { id: opts.id ?? nextId++, username, name: opts.name ?? username, admin: opts.admin ?? false, state: opts.state ?? 'active' };
}

/** A project scope for contexts. */
export function projectScope(id: number, opts: Partial<ProjectScope> = {}): ProjectScope {
  return { id, path_with_namespace: `group/project-${id}`, namespace_id: 1, group_id: 1, visibility: 'private', access_level: 0, ...opts };
}

/** A group scope for contexts. */
export function groupScope(id: number, opts: Partial<GroupScope> = {}): GroupScope {
  return { id, full_path: `group-${id}`, parent_id: null, visibility: 'private', access_level: 0, ...opts };
}
