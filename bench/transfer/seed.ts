/**
 * Seeds the transfer benchmark: through the API (identity) the caller `bencher` with a token, ten
 * users with public e-mails, one private project of the caller with the ten as Developers; then,
 * once work-items and pipelines have the project in their read models, set-based SQL straight into
 * their schemas: issues (labels, milestones, assignees), notes on every issue, pipelines with three
 * jobs each.
 */
import { createDb, type Knex } from '@anvil/db';
import type { Fleet } from '@anvil/testing';
import { api, waitFor } from '../support/fleet-api';

/** How much to seed. */
export interface Volume {
  issues: number;
  notesPerIssue: number;
  pipelines: number;
}

export interface Seeded {
  token: string;
  userId: number;
  projectId: number;
  /** Which run of the fleet this is (each run's import takes a path of its own). */
  tag: string;
}

const ISSUES_SQL = `
INSERT INTO issues (project_id, iid, title, description, state, author_id, closed_by_id, closed_at, created_at, updated_at,
                    due_date, confidential, milestone_id, weight, time_estimate)
SELECT :pid, g,
       'Issue ' || g || ' about ' || (ARRAY['login','editor','search','billing','export'])[1 + g % 5],
       'Steps to reproduce issue ' || g || E'\\n- [x] first step\\n- [ ] second step',
       CASE WHEN g % 4 = 0 THEN 'closed' ELSE 'opened' END,
       (CAST(:users AS int[]))[1 + g % 10],
       CASE WHEN g % 4 = 0 THEN (CAST(:users AS int[]))[1 + (g + 1) % 10] END,
       CASE WHEN g % 4 = 0 THEN t.ts + interval '1 day' END,
       t.ts, t.ts + interval '2 hours',
       CASE WHEN g % 7 = 0 THEN DATE '2026-01-01' + (g % 60) END,
       g % 50 = 0,
       CASE WHEN g % 3 = 0 THEN (CAST(:milestones AS int[]))[1 + g % 5] END,
       CASE WHEN g % 5 > 0 THEN g % 5 END,
       (g % 10) * 3600
FROM generate_series(1, :n) g, LATERAL (SELECT TIMESTAMPTZ '2026-01-01' + g * interval '1 minute' AS ts) t`;

const NOTES_SQL = `
INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at)
SELECT 'Issue', i.id, i.project_id, (CAST(:users AS int[]))[1 + g % 10], 'Comment ' || g || ' on issue ' || i.iid || ': looks right to me.', g % 10 = 0, false,
       i.created_at + g * interval '1 second', i.created_at + g * interval '1 second'
FROM issues i, generate_series(1, :perIssue) g
WHERE i.project_id = :pid
ORDER BY i.id, g`;

const PIPELINES_SQL = `
INSERT INTO pipelines (project_id, iid, name, ref, sha, before_sha, tag, source, status, user_id, duration, created_at, updated_at, started_at, finished_at, committed_at)
SELECT :pid, g, CASE WHEN g % 10 = 0 THEN 'Nightly' END, CASE WHEN g % 3 = 0 THEN 'main' ELSE 'feature-' || g % 20 END,
       md5('c' || g) || lpad(to_hex(g), 8, '0'), md5('c' || (g - 1)) || lpad(to_hex(g - 1), 8, '0'), false,
       (ARRAY['push','web','api','schedule','trigger'])[1 + g % 5], (ARRAY['success','failed','canceled','skipped','manual'])[1 + g % 5],
       (CAST(:users AS int[]))[1 + g % 10], 120 + g % 600,
       t.ts, t.ts + interval '10 minutes', t.ts + interval '30 seconds', t.ts + interval '10 minutes', t.ts - interval '1 minute'
FROM generate_series(1, :n) g, LATERAL (SELECT TIMESTAMPTZ '2026-01-01' + g * interval '1 minute' AS ts) t`;

const JOBS_SQL = `
INSERT INTO jobs (pipeline_id, project_id, name, stage, stage_idx, status, allow_failure, user_id, created_at, updated_at, queued_at, started_at, finished_at)
SELECT p.id, p.project_id, s.name, s.stage, s.idx, CASE WHEN s.idx = 2 THEN p.status ELSE 'success' END, s.name = 'lint', p.user_id,
       p.created_at, p.updated_at, p.created_at, p.started_at, p.finished_at
FROM pipelines p, (VALUES ('build', 'build', 0), ('lint', 'test', 1), ('unit', 'test', 2)) AS s(name, stage, idx)
WHERE p.project_id = :pid
ORDER BY p.id, s.idx`;

async function seedWorkItems(db: Knex, pid: number, users: number[], v: Volume): Promise<void> {
  const labels = (await db.raw(`INSERT INTO labels (title, color, project_id) SELECT 'label-' || g, '#' || lpad(to_hex(g * 1234567 % 16777215), 6, '0'), ? FROM generate_series(0, 9) g RETURNING id`, [pid])).rows.map((r: { id: number }) => r.id);
  const milestones = (await db.raw(`INSERT INTO milestones (iid, project_id, title, due_date, start_date)
    SELECT g, ?, 'm' || g, DATE '2026-01-01' + g * 10, DATE '2025-12-01' + g * 10 FROM generate_series(1, 5) g RETURNING id`, [pid])).rows.map((r: { id: number }) => r.id);
  await db.raw(ISSUES_SQL, { pid, n: v.issues, users, milestones });
  await db.raw(`INSERT INTO issue_labels (issue_id, label_id) SELECT id, (CAST(? AS int[]))[1 + iid % 10] FROM issues WHERE project_id = ?`, [labels, pid]);
  await db.raw(`INSERT INTO issue_assignees (issue_id, user_id) SELECT id, (CAST(? AS int[]))[1 + iid % 10] FROM issues WHERE project_id = ? AND iid % 2 = 0`, [users, pid]);
  await db.raw(NOTES_SQL, { pid, perIssue: v.notesPerIssue, users });
  await db.raw(`UPDATE issues i SET user_notes_count = n.c FROM (SELECT noteable_id, count(*) FILTER (WHERE NOT system) AS c FROM notes WHERE project_id = ? AND noteable_type = 'Issue' GROUP BY noteable_id) n
    WHERE i.id = n.noteable_id`, [pid]);
  await db.raw(`INSERT INTO internal_ids (scope, scope_id, usage, last_value) VALUES ('project', ?, 'issues', ?), ('project', ?, 'milestones', 5)
    ON CONFLICT (scope, scope_id, usage) DO UPDATE SET last_value = EXCLUDED.last_value`, [pid, v.issues, pid]);
}

async function seedPipelines(db: Knex, project: { id: number; path_with_namespace: string }, users: { id: number; username: string }[], v: Volume): Promise<void> {
  await db('ci_users').insert(users.map((u) => ({ id: u.id, username: u.username, name: u.username }))).onConflict('id').ignore();
  await db('ci_projects').insert({ id: project.id, path_with_namespace: project.path_with_namespace, visibility: 'private', last_pipeline_iid: v.pipelines }).onConflict('id').merge();
  await db.raw(PIPELINES_SQL, { pid: project.id, n: v.pipelines, users: users.map((u) => u.id) });
  await db.raw(JOBS_SQL, { pid: project.id });
}

/** Creates the caller, users and project through the API, waits for the read models, bulk-loads the rest. */
export async function seed(fleet: Fleet, databaseUrl: string, v: Volume, tag: string): Promise<Seeded> {
  const admin = (m: string, p: string, b?: unknown) => api(fleet, fleet.adminToken, m, p, b);
  const mkUser = (username: string) => admin('POST', '/users', { username, name: username, email: `${username}@example.com`, public_email: `${username}@example.com`, password: 'Sup3r-secret-pw!', skip_confirmation: true });
  const caller = await mkUser('bencher');
  const token = (await admin('POST', `/users/${caller.id}/personal_access_tokens`, { name: 'bench', scopes: ['api'] })).token as string;
  const people: { id: number; username: string }[] = [];
  for (let i = 0; i < 10; i++) people.push(await mkUser(`bench-u${i}`));
  const users = people.map((u) => u.id);
  const project = await api(fleet, token, 'POST', '/projects', { name: 'Transfer', path: 'transfer', visibility: 'private', description: 'the transfer benchmark' });
  for (const id of users) await api(fleet, token, 'POST', `/projects/${project.id}/members`, { user_id: id, access_level: 30 });
  const wi = createDb({ url: databaseUrl, schema: fleet.schemas['work-items'], pool: { min: 1, max: 2 } });
  const ci = createDb({ url: databaseUrl, schema: fleet.schemas.pipelines, pool: { min: 1, max: 2 } });
  try {
    await waitFor(async () => !!(await wi('projects').where({ id: project.id }).first()), "work-items' read model");
    const started = Date.now();
    await seedWorkItems(wi, project.id, users, v);
    await seedPipelines(ci, project, people, v);
    await wi.raw(`ANALYZE ${['issues', 'notes', 'issue_labels', 'issue_assignees', 'labels', 'milestones'].map((t) => `"${fleet.schemas['work-items']}".${t}`).join(', ')}`);
    await ci.raw(`ANALYZE "${fleet.schemas.pipelines}".pipelines, "${fleet.schemas.pipelines}".jobs`);
    console.log(`seeded ${v.issues} issues, ${v.issues * v.notesPerIssue} notes, ${v.pipelines} pipelines and ${v.pipelines * 3} jobs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await wi.destroy();
    await ci.destroy();
  }
  return { token, userId: caller.id, projectId: project.id, tag };
}
