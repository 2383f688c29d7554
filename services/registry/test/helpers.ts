import { createHash } from 'node:crypto';
import http from 'node:http';
import request from 'supertest';
import { type Actor, CONTEXT_HEADER, type ProjectScope, type Visibility } from '@anvil/auth';
import { actor, projectScope, signFor, startService, TEST_BASE_URL, testSigner, type As, type TestService } from '@anvil/testing';
import { registryService } from '../src';
import type { RegistryConfig } from '../src/config';

export type Registry = TestService<RegistryConfig>;

/** Starts the registry on a fresh schema (extra env as given). */
export function startRegistry(env: Record<string, string> = {}): Promise<Registry> {
  return startService(registryService, { env: { CONAN_JWT_SECRET: 'test-conan-secret', ...env } });
}

/**
 * Starts a registry (extra env as given) before the tests of the file or block it is called in, hands
 * it to `use`, and stops it after them.
 */
export function registryForTests(use: (svc: Registry) => void, env: Record<string, string> = {}): void {
  let svc: Registry | undefined;
  beforeAll(async () => {
    svc = await startRegistry(env);
    use(svc);
  });
  afterAll(async () => {
    await svc?.stop();
  });
}

let nextProject = 5000;
/** A project scope with the caller's access level. */
export function project(visibility: Visibility, access = 0, id = nextProject++, path = `group/project-${id}`): ProjectScope {
  return projectScope(id, { visibility, access_level: access, path_with_namespace: path });
}

/** The Conan username of a project. */
export function usernameOf(p: ProjectScope): string {
  return p.path_with_namespace.replace(/\//g, '+');
}

/** A signed-in user with a PAT (api scope) acting on `p`. */
export function asUser(user: Actor, p?: ProjectScope, extra: Partial<As> = {}): As {
  return { user, scopes: ['api'], auth: 'pat', token_id: 77, project: p, ...extra };
}

/** Nobody. */
export function anon(p?: ProjectScope): As {
  return { user: null, project: p };
}

/** A fresh user. */
export function user(name = 'dev', admin = false): Actor {
  return actor(name, { admin });
}

export const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
export const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest('hex');
export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export const RREV = 'd41d8cd98f00b204e9800998ecf8427e';
export const RREV2 = 'a41d8cd98f00b204e9800998ecf8427f';
export const PREV = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';
export const PREV2 = 'ea39a3ee5e6b4b0d3255bfef95601890afd8070a';
export const PKG_ID = '103f6067a947f366ef91fc1b7da351c588d1827f';

/** Prefixes of the three surfaces. */
export const v2 = (p: ProjectScope) => `/api/v4/projects/${p.id}/packages/conan/v2`;
export const v1p = (p: ProjectScope) => `/api/v4/projects/${p.id}/packages/conan/v1`;
export const v1i = '/api/v4/packages/conan/v1';

/** `conans/<name>/<version>/<username>/<channel>` of a recipe in `p`. */
export function recipePath(p: ProjectScope, name = 'hello', version = '1.0', channel = 'stable'): string {
  return `conans/${name}/${version}/${usernameOf(p)}/${channel}`;
}

/** Uploads a v2 recipe (conanfile.py + conanmanifest.txt) and one package (three files). */
export async function seedV2(svc: Registry, p: ProjectScope, who: As, opts: { rrev?: string; prev?: string; pkgId?: string; name?: string; info?: string } = {}) {
  const base = `${v2(p)}/${recipePath(p, opts.name)}/revisions/${opts.rrev ?? RREV}`;
  for (const [f, body] of [['conanfile.py', 'from conan import ConanFile\n'], ['conanmanifest.txt', '1700000000\nconanfile.py: 0123456789abcdef0123456789abcdef\n']]) {
    await svc.as(who).put(`${base}/files/${f}`).send(body).expect(200);
  }
  const pbase = `${base}/packages/${opts.pkgId ?? PKG_ID}/revisions/${opts.prev ?? PREV}`;
  const info = opts.info ?? '[settings]\nos=Linux\narch=x86_64\n[options]\nshared=False\n[requires]\nzlib/1.2.Z\n';
  for (const [f, body] of [['conan_package.tgz', 'tgz-bytes'], ['conaninfo.txt', info], ['conanmanifest.txt', '1700000000\n']]) {
    await svc.as(who).put(`${pbase}/files/${f}`).send(body).expect(200);
  }
}

/**
 * A request signed like the gateway's with context fields `As` does not carry (the gateway's
 * proposed `token_expires_at`).
 */
export function signedWith(svc: Registry, method: 'get' | 'put' | 'post' | 'delete', path: string, as: As, extra: Record<string, unknown>) {
  const header = testSigner.sign({
    rid: 'test',
    m: method.toUpperCase(),
    p: path,
    aud: 'registry',
    base: TEST_BASE_URL,
    user: as.user ?? null,
    scopes: as.scopes ?? [],
    auth: as.auth ?? 'none',
    token_id: as.token_id,
    project: as.project,
    ...extra,
  } as Parameters<typeof testSigner.sign>[0]);
  return request(svc.server)[method](path).set(CONTEXT_HEADER, header);
}

/**
 * A PUT over a raw HTTP connection, signed like the gateway's: the body goes out as the given chunks
 * with `Transfer-Encoding: chunked` unless a Content-Length header is given.
 */
export function rawPut(svc: Registry, path: string, as: As, chunks: Buffer[], headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${svc.url}${path}`, { method: 'PUT', headers: { [CONTEXT_HEADER]: signFor('put', path, as, 'registry'), ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), headers: res.headers }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}
