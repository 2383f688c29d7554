import type { Knex } from 'knex';
import type { Actor, ProjectScope } from '@anvil/auth';
import type { Db } from '../jobs/job-store';
import type { Pipeline, PipelineVariable } from './pipeline-row';

/** The columns a new pipeline is inserted with. */
export type NewPipeline = Pick<Pipeline, 'project_id' | 'ref' | 'sha' | 'before_sha' | 'tag' | 'source' | 'user_id' | 'name'> & {
  parent_pipeline_id?: number | null;
  committed_at?: Date | null;
};

/** Records the actor as pipelines show it (`user`), keeping the newest name. */
export async function upsertUser(db: Db, user: Actor): Promise<void> {
  await db.raw(
    `INSERT INTO ci_users (id, username, name, state) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, name = EXCLUDED.name, state = EXCLUDED.state, updated_at = now()`,
    [user.id, user.username, user.name, user.state],
  );
}

/** Records the project's path and visibility and takes its next pipeline iid. */
export async function nextPipelineIid(db: Db, project: ProjectScope): Promise<number> {
  const { rows } = await db.raw(
    `INSERT INTO ci_projects (id, path_with_namespace, visibility, last_pipeline_iid) VALUES (?, ?, ?, 1)
     ON CONFLICT (id) DO UPDATE SET path_with_namespace = EXCLUDED.path_with_namespace, visibility = EXCLUDED.visibility,
       last_pipeline_iid = ci_projects.last_pipeline_iid + 1, updated_at = now()
     RETURNING last_pipeline_iid`,
    [project.id, project.path_with_namespace, project.visibility],
  );
  return rows[0].last_pipeline_iid;
}

/** Inserts a pipeline (status `created`). */
export async function insertPipeline(db: Db, p: NewPipeline & { iid: number }): Promise<Pipeline> {
  const [row] = await db('pipelines').insert(p).returning('*');
  return row;
}

/** Inserts a pipeline's variables. */
export async function insertVariables(db: Db, pipelineId: number, vars: PipelineVariable[]): Promise<void> {
  if (vars.length) await db('pipeline_variables').insert(vars.map((v) => ({ pipeline_id: pipelineId, ...v })));
}

/** A pipeline's variables, in the order they were given. */
export async function variablesOf(db: Db, pipelineId: number): Promise<PipelineVariable[]> {
  return db('pipeline_variables').select('key', 'value', 'variable_type').where({ pipeline_id: pipelineId }).orderBy('id');
}

/** A pipeline of a project (child pipelines included), or null. */
export async function findPipeline(db: Db, projectId: number, id: number): Promise<Pipeline | null> {
  return (await db('pipelines').where({ id, project_id: projectId }).first()) ?? null;
}

/** A pipeline by id, or null. */
export async function findPipelineById(db: Db, id: number): Promise<Pipeline | null> {
  return (await db('pipelines').where({ id }).first()) ?? null;
}

/** A pipeline locked FOR UPDATE: processing of one pipeline is serialised on this lock. */
export async function lockPipeline(trx: Knex.Transaction, id: number): Promise<Pipeline | null> {
  return (await trx('pipelines').where({ id }).forUpdate().first()) ?? null;
}

/** Sets the given columns of a pipeline (and `updated_at`), returning the row. */
export async function updatePipeline(db: Db, id: number, patch: Partial<Pipeline>): Promise<Pipeline> {
  const [row] = await db('pipelines').where({ id }).update({ ...patch, updated_at: db.fn.now() }).returning('*');
  return row;
}

/** Deletes a pipeline with its jobs and variables (children are kept, unlinked). */
export async function deletePipelineRow(db: Db, id: number): Promise<void> {
  await db('pipelines').where({ id }).delete();
}

/** The newest pipeline on `ref` for commit `sha`, or null. */
export async function latestFor(db: Db, projectId: number, ref: string, sha: string): Promise<Pipeline | null> {
  return (await db('pipelines').where({ project_id: projectId, ref, sha }).orderBy('id', 'desc').first()) ?? null;
}

/** What pipelines show of users, by id. */
export async function usersByIds(db: Db, ids: (number | null)[]): Promise<Map<number, UserSnapshot>> {
  const wanted = [...new Set(ids.filter((x): x is number => x !== null))];
  if (wanted.length === 0) return new Map();
  const rows: UserSnapshot[] = await db('ci_users').select('id', 'username', 'name', 'state').whereIn('id', wanted);
  return new Map(rows.map((r) => [r.id, r]));
}

/** A user as recorded when they acted on pipelines. */
export interface UserSnapshot {
  id: number;
  username: string;
  name: string;
  state: string;
}

/** The project's recorded path, or null before its first pipeline. */
export async function projectPath(db: Db, projectId: number): Promise<string | null> {
  return (await db('ci_projects').where({ id: projectId }).first())?.path_with_namespace ?? null;
}
