/**
 * The benchmark's tiny upstream: a real service app (`createServiceApp`, context verification, body
 * parsers, metrics) with one route doing one indexed Postgres query:
 * `GET /api/v4/projects/:id/pipelines/:pipeline_id` → `select … where id = ?` (primary key).
 * Run as its own process by bench/gateway/run.ts (env: DATABASE_URL, DB_SCHEMA, PORT, GATEWAY_PUBLIC_KEY).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContextVerifier } from '@anvil/auth';
import { createDb, ensureSchema } from '@anvil/db';
import { createServiceApp, ctx, NotFoundError } from '@anvil/http';

const ROWS = 10_000;

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const schema = process.env.DB_SCHEMA ?? 'bench_upstream';
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
    verifier: new ContextVerifier((process.env.GATEWAY_PUBLIC_KEY ?? '').replace(/\\n/g, '\n')),
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
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port })}\n`);
  });
  const stop = () => server.close(() => db.destroy().then(() => process.exit(0)));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((e) => {
  process.stderr.write(`bench upstream failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
