/**
 * The gateway benchmark's tiny upstream: a real service app (`createServiceApp`, context verification,
 * body parsers, metrics) with one route doing one indexed Postgres query:
 * `GET /api/v4/projects/:id/pipelines/:pipeline_id` → `select … where id = ?` (primary key).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContextVerifier } from '@anvil/auth';
import { createDb, dropSchema, ensureSchema } from '@anvil/db';
import { createServiceApp, ctx, NotFoundError } from '@anvil/http';

const ROWS = 10_000;

/** The upstream, listening on loopback, on a fresh `schema` (dropped by `close`). */
export async function startUpstream(url: string, schema: string, publicKey: string): Promise<{ url: string; close(): Promise<void> }> {
  await ensureSchema({ url, schema });
  const db = createDb({ url, schema });
  await db.schema.createTable('bench_pipelines', (t) => {
    t.integer('id').primary();
    t.integer('project_id').notNullable();
    t.text('status').notNullable();
    t.text('ref').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw(`insert into bench_pipelines (project_id, id, status, ref) select (g % 100) + 1, g, 'success', 'main' from generate_series(1, ${ROWS}) g`);
  await db.raw('analyze bench_pipelines');

  const app = createServiceApp({
    name: 'bench-upstream',
    verifier: new ContextVerifier(publicKey, 'pipelines'),
    logger: { debug() {}, info() {}, warn() {}, error() {}, child() { return this; } },
    api: (router) => {
      // GET /projects/:id/pipelines/:pipeline_id (benchmark stand-in)
      router.get('/projects/:id/pipelines/:pipeline_id', async (req, res) => {
        if (!ctx(req).project) throw new NotFoundError('Project');
        const row = await db('bench_pipelines').where({ id: Number(req.params.pipeline_id) }).first();
        if (!row) throw new NotFoundError('Pipeline');
        res.json({ id: row.id, project_id: row.project_id, status: row.status, ref: row.ref, created_at: row.created_at });
      });
    },
  });
  const server = http.createServer({ keepAliveTimeout: 65_000 }, app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await db.destroy();
      await dropSchema({ url, schema });
    },
  };
}
