import type { Knex } from 'knex';

/** A row of `relation_imports` (GitLab's `RelationImportTracker`). */
export interface RelationImportRow {
  id: number;
  project_id: number;
  project_path: string;
  relation: 'issues' | 'milestones' | 'ci_pipelines' | 'merge_requests';
  status: 'created' | 'started' | 'finished' | 'failed';
  user_id: number;
  archive_key: string | null;
  /** How often the stuck-job sweep re-published the tracker's request. */
  redrives: number;
  created_at: Date;
  updated_at: Date;
}

type Db = Knex | Knex.Transaction;

/** A tracker older than this that has not ended counts as stale (no longer in progress). */
export const STALE_AFTER_MS = 24 * 3600_000;

/** Store of `relation_imports`. */
export const relationImportStore = {
  async insert(db: Db, row: Pick<RelationImportRow, 'project_id' | 'project_path' | 'relation' | 'user_id' | 'archive_key'>): Promise<RelationImportRow> {
    const [created] = await db('relation_imports').insert(row).returning('*');
    return created as RelationImportRow;
  },

  async find(db: Db, id: number): Promise<RelationImportRow | null> {
    return (await db<RelationImportRow>('relation_imports').where({ id }).first()) ?? null;
  },

  /** The project's trackers, oldest first. */
  async forProject(db: Db, projectId: number): Promise<RelationImportRow[]> {
    return (await db('relation_imports').where({ project_id: projectId }).orderBy('id')) as RelationImportRow[];
  },

  /** Whether a project or relation import of the project is still running (stale trackers aside). */
  async busy(db: Db, projectId: number): Promise<boolean> {
    const tracker = await db('relation_imports').where({ project_id: projectId }).whereIn('status', ['created', 'started'])
      .where('created_at', '>', new Date(Date.now() - STALE_AFTER_MS)).first('id');
    if (tracker) return true;
    const project = await db('project_imports').where({ project_id: projectId }).orderBy('id', 'desc').first('status');
    return project ? ['scheduled', 'started'].includes(project.status) : false;
  },

  /** Moves a tracker to `status` from one of `from`; false when it was elsewhere. */
  async transition(db: Db, id: number, from: RelationImportRow['status'][], status: RelationImportRow['status']): Promise<boolean> {
    return (await db('relation_imports').where({ id }).whereIn('status', from).update({ status, updated_at: db.fn.now() })) > 0;
  },
};
