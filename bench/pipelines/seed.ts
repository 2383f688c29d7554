/**
 * Seeds the pipelines benchmark: through the API (identity) the caller `bencher` with a token, ten
 * users, a private group (the caller a Reporter) with one private project; then, straight into the
 * pipelines schema with `generate_series`, 100,000 pipelines on that project (statuses, refs,
 * sources, users, names, a few YAML errors) with three jobs each.
 */
import { createDb } from '@anvil/db';
import type { Fleet } from '@anvil/testing';
import { api } from '../support/fleet-api';

export interface Seeded {
  token: string;
  projectId: number;
  pipelineIds: number[];
  usernames: string[];
  pipelines: number;
}

const PIPELINES_SQL = `
INSERT INTO pipelines (project_id, iid, name, ref, sha, before_sha, tag, source, status, user_id, yaml_errors,
                       duration, queued_duration, created_at, updated_at, started_at, finished_at, committed_at)
SELECT :pid, g,
       CASE WHEN g % 10 = 0 THEN 'Nightly ' || (g / 10) % 5 END,
       CASE WHEN g % 3 = 0 THEN 'main' ELSE 'feature-' || g % 20 END,
       md5('c' || g) || lpad(to_hex(g), 8, '0'), md5('c' || (g - 1)) || lpad(to_hex(g - 1), 8, '0'),
       false,
       (ARRAY['push','web','api','schedule','trigger'])[1 + g % 5],
       (ARRAY['success','failed','canceled','success','running','pending','skipped','manual'])[1 + g % 8],
       (CAST(:users AS int[]))[1 + g % 10],
       CASE WHEN g % 100 = 0 THEN 'jobs:unit script can''t be blank' END,
       120 + g % 600, g % 30,
       t.ts, t.ts + interval '10 minutes', t.ts + interval '30 seconds', t.ts + interval '10 minutes', t.ts - interval '1 minute'
FROM generate_series(1, :n) g, LATERAL (SELECT now() - (:n - g) * interval '1 minute' AS ts) t`;

const JOBS_SQL = `
INSERT INTO jobs (pipeline_id, project_id, name, stage, stage_idx, status, allow_failure, user_id, created_at, updated_at, queued_at, started_at, finished_at)
SELECT p.id, p.project_id, s.name, s.stage, s.idx, CASE WHEN s.idx = 3 THEN p.status ELSE 'success' END, s.name = 'lint', p.user_id,
       p.created_at, p.updated_at, p.created_at, p.started_at, p.finished_at
FROM pipelines p, (VALUES ('build', 'build', 1), ('lint', 'test', 2), ('unit', 'test', 3)) AS s(name, stage, idx)
WHERE p.project_id = :pid
ORDER BY p.id, s.idx`;

/** Creates the caller, users, group and project through the API, then bulk-loads the pipelines. */
export async function seed(fleet: Fleet, databaseUrl: string, pipelines: number): Promise<Seeded> {
  const admin = (m: string, p: string, b?: unknown) => api(fleet, fleet.adminToken, m, p, b);
  const mkUser = (username: string) => admin('POST', '/users', { username, name: username, email: `${username}@example.com`, password: 'Sup3r-secret-pw!', skip_confirmation: true });
  const caller = await mkUser('bencher');
  const token = (await admin('POST', `/users/${caller.id}/personal_access_tokens`, { name: 'bench', scopes: ['api'] })).token as string;
  const users: { id: number; username: string }[] = [];
  for (let i = 0; i < 10; i++) users.push(await mkUser(`bench-u${i}`));
  const group = await admin('POST', '/groups', { name: 'Bench', path: 'bench', visibility: 'private' });
  await admin('POST', `/groups/${group.id}/members`, { user_id: caller.id, access_level: 20 });
  const project = await admin('POST', '/projects', { name: 'Pipelines', path: 'pipelines', namespace_id: group.id, visibility: 'private' });
  const schema = fleet.schemas.pipelines;
  const db = createDb({ url: databaseUrl, schema, pool: { min: 1, max: 2 } });
  try {
    const started = Date.now();
    await db('ci_users').insert(users.map((u) => ({ id: u.id, username: u.username, name: u.username })));
    await db('ci_projects').insert({ id: project.id, path_with_namespace: project.path_with_namespace, visibility: 'private', last_pipeline_iid: pipelines });
    await db.raw(PIPELINES_SQL, { pid: project.id, n: pipelines, users: users.map((u) => u.id) });
    await db.raw(JOBS_SQL, { pid: project.id });
    await db.raw(`VACUUM ANALYZE ${['pipelines', 'jobs', 'ci_users', 'ci_projects'].map((t) => `"${schema}".${t}`).join(', ')}`);
    const ids: { id: number }[] = await db('pipelines').select('id').where({ project_id: project.id }).orderBy('id');
    console.log(`seeded ${pipelines} pipelines and ${pipelines * 3} jobs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const step = Math.max(1, Math.floor(ids.length / 200));
    return { token, projectId: project.id, pipelineIds: ids.filter((_, i) => i % step === 0).map((r) => r.id), usernames: users.map((u) => u.username), pipelines };
  } finally {
    await db.destroy();
  }
}
