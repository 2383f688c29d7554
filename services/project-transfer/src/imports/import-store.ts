import type { Knex } from 'knex';

/** A row of `project_imports`. */
export interface ImportRow {
  id: number;
  project_id: number | null;
  user_id: number;
  status: 'none' | 'scheduled' | 'started' | 'finished' | 'failed' | 'canceled';
  import_type: string;
  correlation_id: string;
  archive_key: string | null;
  path: string;
  name: string | null;
  namespace_id: number | null;
  overwrite: boolean;
  override_params: Record<string, unknown>;
  counts: Record<string, number>;
  parts_received: string[];
  error: string | null;
  /** How often the stuck-job sweep re-published the import's request. */
  redrives: number;
  created_at: Date;
  updated_at: Date;
}

/** A row of `import_failures`. */
export interface FailureRow {
  id: number;
  created_at: Date;
  exception_class: string;
  exception_message: string | null;
  source: string;
  relation_name: string;
  line_number: number | null;
}

type Db = Knex | Knex.Transaction;

/** GitLab keeps at most this many failed relations on the status record. */
export const FAILED_RELATIONS_LIMIT = 100;

/** Stores of `project_imports` and `import_failures`. */
export const importStore = {
  async insert(db: Db, row: Pick<ImportRow, 'project_id' | 'user_id' | 'correlation_id' | 'archive_key' | 'path' | 'name' | 'overwrite' | 'override_params'>): Promise<ImportRow> {
    const [created] = await db('project_imports').insert({ ...row, override_params: JSON.stringify(row.override_params) }).returning('*');
    return created as ImportRow;
  },

  /** The latest import of a project, or null. */
  async latestFor(db: Db, projectId: number): Promise<ImportRow | null> {
    return (await db<ImportRow>('project_imports').where({ project_id: projectId }).orderBy('id', 'desc').first()) ?? null;
  },

  async find(db: Db, id: number): Promise<ImportRow | null> {
    return (await db<ImportRow>('project_imports').where({ id }).first()) ?? null;
  },

  /** Moves an import to `status` from one of `from`; false when it was elsewhere. */
  async transition(db: Db, id: number, from: ImportRow['status'][], status: ImportRow['status'], patch: Partial<Pick<ImportRow, 'error' | 'counts'>> = {}): Promise<boolean> {
    const values: Record<string, unknown> = { status, updated_at: db.fn.now() };
    if (patch.error !== undefined) values.error = patch.error;
    if (patch.counts !== undefined) values.counts = JSON.stringify(patch.counts);
    return (await db('project_imports').where({ id }).whereIn('status', from).update(values)) > 0;
  },

  /** Records failed lines (at most FAILED_RELATIONS_LIMIT per import are kept). */
  async addFailures(db: Db, importId: number, source: string, failures: Omit<FailureRow, 'id' | 'created_at' | 'source'>[]): Promise<void> {
    if (!failures.length) return;
    const counted = (await db('import_failures').where('import_id', importId).count({ count: '*' }).first()) as { count: string } | undefined;
    const have = Number(counted?.count ?? 0);
    const room = Math.max(0, FAILED_RELATIONS_LIMIT - have);
    if (room) await db('import_failures').insert(failures.slice(0, room).map((f) => ({ ...f, import_id: importId, source })));
  },

  async failures(db: Db, importId: number): Promise<FailureRow[]> {
    return (await db('import_failures').where('import_id', importId).orderBy('id').limit(FAILED_RELATIONS_LIMIT)) as FailureRow[];
  },
};
