import http from 'node:http';
import type { TestService } from '@anvil/testing';
import { actor, projectScope, signFor } from '@anvil/testing';
import { CONTEXT_HEADER } from '@anvil/auth';
import { basic, bearer, fixture, Fixture, startAlerting } from '../support/alerting';
import { amMessage, firing } from '../support/payloads';

describe('POST notify URLs with hostile requests', () => {
  let svc: TestService;
  let f: Fixture;
  let integration: Awaited<ReturnType<Fixture['integration']>>;
  const stored = () => svc.deps.db('alerts').where({ project_id: f.projectId }).count({ n: '*' }).first().then((r) => Number(r?.n));
  const nested = (depth: number) => `{"title":"deep","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
    integration = await f.integration();
  });
  afterAll(() => svc?.stop());

  describe('payloads refused before anything is stored (400, no body)', () => {
    it.each([
      ['a body over 1 MB', () => JSON.stringify({ title: 'big', pad: 'x'.repeat(1024 * 1024) })],
      ['nesting deeper than 100', () => nested(101)],
      ['broken JSON', () => '{"title": "x",'],
      ['not JSON at all', () => 'title=x'],
      ['an empty body', () => ''],
      ['a JSON array', () => '[{"title":"x"}]'],
      ['a JSON string', () => '"x"'],
      ['null', () => 'null'],
      ['a NUL character', () => JSON.stringify({ title: 'a\u0000b' })],
      ['a lone surrogate', () => '{"title":"\\ud800"}'],
      ['an object where the title belongs', () => JSON.stringify({ title: { a: 1 } })],
      ['an array of objects as hosts', () => JSON.stringify({ hosts: [{ a: 1 }] })],
      ['101 alerts', () => JSON.stringify(amMessage(Array.from({ length: 101 }, (_, i) => ({ ...firing, annotations: { title: `t${i}` } }))))],
      ['alerts that are not an array', () => JSON.stringify({ ...amMessage([]), alerts: 'x' })],
      ['labels that are not an object', () => JSON.stringify(amMessage([{ ...firing, labels: ['x'] }]))],
    ])('%s', async (_what, body) => {
      const res = await f.notify(integration.url, body(), bearer(integration.token)).expect(400);
      expect(res.text).toBe('');
      expect(await stored()).toBe(0);
    });
  });

  it('refuses a chunked body once it passes 1 MB and cuts the connection past the drain limit (400 or reset, nothing stored)', async () => {
    const suffix = integration.url.slice(integration.url.indexOf('/alerts/notify'));
    const path = `/api/v4/projects/${f.projectId}${suffix}`;
    const ctxHeader = signFor('post', path, { user: null, auth: 'none', project: projectScope(f.projectId, { path_with_namespace: f.path }) }, 'alerting');
    const total = 64 * 1024 * 1024;
    let sent = 0;
    // a client that writes without reading may see the reset before the answer: either ends it
    const outcome = await new Promise<{ status?: number; connection?: string; reset?: true }>((resolve) => {
      const req = http.request(`${svc.url}${path}`, { method: 'POST', headers: { [CONTEXT_HEADER]: ctxHeader, authorization: bearer(integration.token), 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection }));
      });
      req.on('error', () => resolve({ reset: true }));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      req.write('{"title":"big","pad":"');
      const pump = () => {
        while (sent < total && !req.destroyed && req.write(chunk)) sent += chunk.length;
        if (sent < total && !req.destroyed) req.once('drain', () => { sent += chunk.length; pump(); });
      };
      pump();
    });
    expect([{ status: 400, connection: 'close' }, { reset: true }]).toContainEqual(outcome);
    expect(sent).toBeLessThan(total);
    expect(await stored()).toBe(0);
  });

  it('takes nesting of exactly 100 and 100 alerts', async () => {
    await f.notify(integration.url, nested(100), bearer(integration.token)).expect(200);
    const many = amMessage(Array.from({ length: 100 }, (_, i) => ({ ...firing, annotations: { title: `t${i}` } })));
    expect((await f.notify(integration.url, many, bearer(integration.token)).expect(200)).body).toHaveLength(100);
  });

  it('reads the body whatever its Content-Type says', async () => {
    await f.notify(integration.url, JSON.stringify({ title: 'plain' }), bearer(integration.token), 'text/plain').expect(200);
  });

  describe('credentials: every miss is the same bare 401', () => {
    it.each([
      ['no credentials', () => null],
      ['a wrong Bearer key', () => bearer('0'.repeat(32))],
      ['a wrong Basic password', () => basic('nope')],
      ['Basic with the key as user name', () => `Basic ${Buffer.from(`${integration.token}:`).toString('base64')}`],
      ['a malformed Basic value', () => 'Basic !!!'],
      ['an unknown scheme', () => `Token ${integration.token}`],
    ])('%s', async (_what, auth) => {
      const res = await f.notify(integration.url, { title: 'x' }, auth()).expect(401);
      expect(res.text).toBe('');
    });

    it('an unknown or malformed endpoint identifier, another project, an unknown project', async () => {
      const key = bearer(integration.token);
      await f.notify(integration.url.replace(/\/[0-9a-f]{16}\.json$/, '/ffffffffffffffff.json'), { title: 'x' }, key).expect(401, '');
      await f.notify(integration.url.replace(/\/[0-9a-f]{16}\.json$/, '/not-alnum!.json'), { title: 'x' }, key).expect(401, '');
      await f.notify(`http://x/${f.path}/prometheus/alerts/notify.json`, amMessage([firing]), key).expect(401, '');
      const other = fixture(svc);
      await other.notify(integration.url.replace(f.path, other.path), { title: 'x' }, key).expect(401, '');
      const noProject = integration.url.slice(integration.url.indexOf('/alerts/notify'));
      await svc.as({ user: null, auth: 'none' }).post(`/api/v4/projects/0${noProject}`).set('Authorization', key).send({ title: 'x' }).expect(401, '');
    });

    it('every miss does the same work: one integration lookup of the same shape, nothing else', async () => {
      const inactive = await f.integration({ name: 'off', active: false });
      const key = bearer(integration.token);
      const sqlOf = async (send: () => Promise<unknown>) => {
        const seen: string[] = [];
        // the outbox relay publishing earlier tests' events (its transaction too) runs on its own schedule
        const record = (q: { sql: string }) => void (/"outbox"|^(BEGIN|COMMIT|ROLLBACK);?$/.test(q.sql) || seen.push(q.sql));
        svc.deps.db.on('query', record);
        try {
          await send();
        } finally {
          svc.deps.db.off('query', record);
        }
        return seen;
      };
      const suffixOf = (url: string) => url.slice(url.indexOf('/alerts/notify'));
      const misses = [
        await sqlOf(() => f.notify(integration.url, { title: 'x' }, bearer('0'.repeat(32))).expect(401)),
        await sqlOf(() => f.notify(integration.url, { title: 'x' }, null).expect(401)),
        await sqlOf(() => f.notify(integration.url.replace(/\/[0-9a-f]{16}\.json$/, '/ffffffffffffffff.json'), { title: 'x' }, key).expect(401)),
        await sqlOf(() => f.notify(inactive.url, { title: 'x' }, bearer(inactive.token)).expect(401)),
        await sqlOf(() => svc.as({ user: null, auth: 'none' }).post(`/api/v4/projects/0${suffixOf(integration.url)}`).set('Authorization', key).send({ title: 'x' }).expect(401)),
      ];
      expect(misses[0]).toHaveLength(1);
      for (const m of misses) expect(m).toEqual(misses[0]);
    });

    it('a signed-in user’s context does not stand in for the key', async () => {
      const suffix = integration.url.slice(integration.url.indexOf('/alerts/notify'));
      await svc.as({ user: actor('admin', { admin: true }), project: projectScope(f.projectId, { access_level: 50 }) })
        .post(`/api/v4/projects/${f.projectId}${suffix}`).send({ title: 'x' }).expect(401, '');
    });

    it('is checked before the body is read: a wrong key with an oversized body is 401', async () => {
      await f.notify(integration.url, 'x'.repeat(2 * 1024 * 1024), bearer('wrong')).expect(401);
    });

    it('is refused without the gateway’s signature', async () => {
      await svc.raw().post(`/api/v4/projects/${f.projectId}/alerts/notify.json`).set('Authorization', bearer(integration.token)).send({ title: 'x' }).expect(401);
    });
  });
});
