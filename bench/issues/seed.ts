/**
 * Seeds the issues benchmark: through the API (identity) an owner, ten assignee users, the
 * benchmark caller with a token, a group with ten private projects; then, straight into the
 * work-items schema with `generate_series`, per project 100k issues with labels, milestones,
 * assignees, weights, due dates, confidential ones and notes/upvote counts; and on the first
 * `notedIssues` issues of the first project, `notesPerIssue` notes each.
 */
import { createDb, Knex } from '@anvil/db';
import type { Fleet } from '@anvil/testing';
import { api, waitFor } from '../support/fleet-api';

export interface Seeded {
  token: string;
  groupId: number;
  projectIds: number[];
  usernames: string[];
  issuesPerProject: number;
  /** Iids of the issues that carry notes (the first project's first ones). */
  notedIids: number[];
  notesPerIssue: number;
}

/** How many notes to load, and on how many issues of the first project. */
export interface NotesSeed {
  issues: number;
  perIssue: number;
}

const ISSUES_SQL = `
INSERT INTO issues (project_id, iid, title, description, state, author_id, closed_by_id, closed_at, created_at, updated_at,
                    due_date, confidential, milestone_id, weight, user_notes_count, upvotes, time_estimate)
SELECT :pid, g,
       'Issue ' || g || ' about ' || (ARRAY['login','editor','search','billing','export'])[1 + g % 5],
       'Steps to reproduce issue ' || g || E'\\n- [x] first step\\n- [ ] second step',
       CASE WHEN g % 4 = 0 THEN 'closed' ELSE 'opened' END,
       (CAST(:users AS int[]))[1 + g % 10],
       CASE WHEN g % 4 = 0 THEN (CAST(:users AS int[]))[1 + (g + 1) % 10] END,
       CASE WHEN g % 4 = 0 THEN t.ts + interval '1 day' END,
       t.ts, t.ts + interval '2 hours',
       CASE WHEN g % 7 = 0 THEN CURRENT_DATE + (g % 60) - 30 END,
       g % 50 = 0,
       CASE WHEN g % 3 = 0 THEN (CAST(:milestones AS int[]))[1 + g % 5] END,
       CASE WHEN g % 5 > 0 THEN g % 5 END,
       g % 13, g % 17, (g % 10) * 3600
FROM generate_series(1, :n) g, LATERAL (SELECT now() - (:n - g) * interval '1 minute' - :offset * interval '1 second' AS ts) t`;

/** What the seed writes, vacuumed and analysed afterwards (so index-only scans skip the heap). */
const SEEDED_TABLES = ['issues', 'issue_labels', 'issue_assignees', 'issue_filter_keys', 'labels', 'milestones', 'notes', 'internal_ids', 'projects', 'users', 'memberships'];

const NOTES_SQL = `
INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at)
SELECT 'Issue', i.id, i.project_id, (CAST(:users AS int[]))[1 + g % 10], 'Comment ' || g || ' on issue ' || i.iid, g % 10 = 0, false,
       i.created_at + g * interval '1 second', i.created_at + g * interval '1 second'
FROM issues i, generate_series(1, :perIssue) g
WHERE i.project_id = :pid AND i.iid <= :issues
ORDER BY i.id, g`;

async function seedProject(db: Knex, pid: number, index: number, users: number[], n: number): Promise<void> {
  const labels = await db.raw(`INSERT INTO labels (title, color, project_id, priority) SELECT 'label-' || g, '#' || lpad(to_hex(g * 1234567 % 16777215), 6, '0'), ?, g
    FROM generate_series(0, 9) g RETURNING id`, [pid]);
  const bug = (await db.raw(`INSERT INTO labels (title, color, project_id) VALUES ('bug', '#d9534f', ?) RETURNING id`, [pid])).rows[0].id;
  const milestones = await db.raw(`INSERT INTO milestones (iid, project_id, title, due_date, start_date)
    SELECT g, ?, 'm' || g, CURRENT_DATE + g * 10 - 20, CURRENT_DATE + g * 10 - 40 FROM generate_series(1, 5) g RETURNING id`, [pid]);
  await db.raw(ISSUES_SQL, { pid, n, offset: index, users, milestones: milestones.rows.map((r: { id: number }) => r.id) });
  const labelIds = labels.rows.map((r: { id: number }) => r.id);
  await db.raw(`INSERT INTO issue_labels (issue_id, label_id) SELECT id, (CAST(? AS int[]))[1 + iid % 10] FROM issues WHERE project_id = ?`, [labelIds, pid]);
  await db.raw(`INSERT INTO issue_labels (issue_id, label_id) SELECT id, ? FROM issues WHERE project_id = ? AND iid % 3 = 0`, [bug, pid]);
  await db.raw(`INSERT INTO issue_assignees (issue_id, user_id) SELECT id, (CAST(? AS int[]))[1 + iid % 10] FROM issues WHERE project_id = ? AND iid % 2 = 0`, [users, pid]);
  await db.raw(`INSERT INTO internal_ids (scope, scope_id, usage, last_value) VALUES ('project', ?, 'issues', ?)
    ON CONFLICT (scope, scope_id, usage) DO UPDATE SET last_value = EXCLUDED.last_value`, [pid, n]);
}

/** Creates the users, group and projects through the API, waits for work-items to see them, bulk-loads the issues. */
export async function seed(fleet: Fleet, databaseUrl: string, issuesPerProject: number, projects: number, notes: NotesSeed): Promise<Seeded> {
  const admin = (m: string, p: string, b?: unknown) => api(fleet, fleet.adminToken, m, p, b);
  const mkUser = (username: string) => admin('POST', '/users', { username, name: username, email: `${username}@example.com`, password: 'Sup3r-secret-pw!', skip_confirmation: true });
  const caller = await mkUser('bencher');
  const token = (await admin('POST', `/users/${caller.id}/personal_access_tokens`, { name: 'bench', scopes: ['api'] })).token as string;
  const users: { id: number; username: string }[] = [];
  for (let i = 0; i < 10; i++) users.push(await mkUser(`bench-u${i}`));
  const group = await admin('POST', '/groups', { name: 'Bench', path: 'bench', visibility: 'private' });
  await admin('POST', `/groups/${group.id}/members`, { user_id: caller.id, access_level: 20 });
  const projectIds: number[] = [];
  for (let i = 0; i < projects; i++) projectIds.push((await admin('POST', '/projects', { name: `Project ${i}`, path: `project-${i}`, namespace_id: group.id, visibility: 'private' })).id);
  const schema = fleet.schemas['work-items'];
  const db = createDb({ url: databaseUrl, schema, pool: { min: 1, max: 4 } });
  try {
    await waitFor(async () => {
      const [p, u, m] = await Promise.all([
        db('projects').count({ n: '*' }).first(), db('users').count({ n: '*' }).first(),
        db('memberships').where({ user_id: caller.id, source_type: 'Namespace', source_id: group.id }).first(),
      ]);
      return Number(p?.n) >= projects && Number(u?.n) >= 11 && !!m;
    }, 'the work-items read model');
    const started = Date.now();
    for (const [i, pid] of projectIds.entries()) await seedProject(db, pid, i, users.map((u) => u.id), issuesPerProject);
    await db.raw(NOTES_SQL, { pid: projectIds[0], issues: notes.issues, perIssue: notes.perIssue, users: users.map((u) => u.id) });
    // Only the seeded tables: a database-wide VACUUM fails when another run drops its schema meanwhile.
    await db.raw(`VACUUM ANALYZE ${SEEDED_TABLES.map((t) => `"${schema}".${t}`).join(', ')}`);
    console.log(`seeded ${projects} × ${issuesPerProject} issues and ${notes.issues} × ${notes.perIssue} notes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await db.destroy();
  }
  const notedIids = Array.from({ length: Math.min(notes.issues, issuesPerProject) }, (_, i) => i + 1);
  return { token, groupId: group.id, projectIds, usernames: users.map((u) => u.username), issuesPerProject, notedIids, notesPerIssue: notes.perIssue };
}
