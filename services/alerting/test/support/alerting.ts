import type { Actor } from '@anvil/auth';
import { AccessLevel } from '@anvil/auth';
import { actor, projectScope, startService, type SignedClient, type TestService } from '@anvil/testing';
import request from 'supertest';
import { alertingService } from '../../src';

let nextProject = 7000 + Math.floor(Math.random() * 100_000);

/** A project of the test, with members at each level that matters. */
export interface Fixture {
  svc: TestService;
  projectId: number;
  path: string;
  maintainer: Actor;
  reporter: Actor;
  guest: Actor;
  /** A client on the project for `who` at `level`. */
  on(who: Actor | null, level?: number): SignedClient;
  as: { maintainer: SignedClient; reporter: SignedClient; guest: SignedClient; anonymous: SignedClient };
  /** Creates an integration (as the maintainer) and returns its JSON with the key. */
  integration(body?: Record<string, unknown>): Promise<{ id: number; url: string; token: string; [k: string]: unknown }>;
  /** Posts to a notify URL (its gateway form, `/<path>/...`) the way the gateway forwards it. */
  notify(url: string, body: unknown, auth?: string | null, contentType?: string): request.Test;
  /** Another project id, fresh. */
  another(): number;
}

/** The service, with `env`, and a fresh private project. */
export async function startAlerting(env: Record<string, string> = {}): Promise<TestService> {
  return startService(alertingService, { env });
}

/** A fixture on a fresh project of `svc`. */
export function fixture(svc: TestService): Fixture {
  const projectId = nextProject++;
  const path = `team/proj-${projectId}`;
  const maintainer = actor('maintainer');
  const reporter = actor('reporter');
  const guest = actor('guest');
  const on = (who: Actor | null, level: number = AccessLevel.NONE) => svc.as({ user: who, project: projectScope(projectId, { path_with_namespace: path, access_level: level }) });
  const as = { maintainer: on(maintainer, AccessLevel.MAINTAINER), reporter: on(reporter, AccessLevel.REPORTER), guest: on(guest, AccessLevel.GUEST), anonymous: on(null) };
  const notify = (url: string, body: unknown, auth: string | null = null, contentType = 'application/json') => {
    const u = new URL(url);
    const suffix = u.pathname.slice(`/${path}`.length) + u.search;
    const t = svc.as({ user: null, auth: 'none', project: projectScope(projectId, { path_with_namespace: path }) }).post(`/api/v4/projects/${projectId}${suffix}`);
    if (auth) t.set('Authorization', auth);
    t.set('Content-Type', contentType);
    return typeof body === 'string' || Buffer.isBuffer(body) ? t.send(body) : t.send(JSON.stringify(body));
  };
  return {
    svc, projectId, path, maintainer, reporter, guest, on, as, notify,
    integration: async (body = {}) => (await as.maintainer.post(`/api/v4/projects/${projectId}/alert_management/http_integrations`).send({ name: 'HTTP endpoint', ...body }).expect(201)).body,
    another: () => nextProject++,
  };
}

/** `Bearer <key>`. */
export const bearer = (key: string) => `Bearer ${key}`;
/** Basic with an empty user name and the key as password (Alertmanager's `basic_auth`). */
export const basic = (key: string, user = '') => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

/** The events the service wrote to its outbox, oldest first, of types starting with `prefix`. */
export async function published(svc: TestService, prefix: string): Promise<{ type: string; data: Record<string, any> }[]> {
  return svc.deps.db('outbox').select('type', 'data').where('type', 'like', `${prefix}%`).orderBy('id');
}
