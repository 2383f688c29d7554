import type { Knex } from 'knex';
import type { JobStatus } from './export-layout';

/** A row of `project_exports`. */
export interface ExportRow {
  id: number;
  project_id: number;
  user_id: number;
  job_id: string | null;
  job_status: JobStatus | null;
  description: string | null;
  upload_url: string | null;
  upload_method: 'PUT' | 'POST' | null;
  upload_headers: Record<string, string>;
  parts_expected: string[];
  parts_received: Record<string, Record<string, number>>;
  archive_key: string | null;
  archive_name: string | null;
  archive_size: number | null;
  counts: Record<string, number>;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  /** When the current job was requested (its age, for the stuck-job sweep's expiry). */
  requested_at: Date;
  /** How often the stuck-job sweep re-published the current job's request. */
  redrives: number;
  updated_at: Date;
}

type Db = Knex | Knex.Transaction;

/** What a new export job records. */
export interface NewJob {
  projectId: number;
  userId: number;
  jobId: string;
  description: string | null;
  upload: { url: string; method: 'PUT' | 'POST'; headers: Record<string, string> } | null;
  parts: string[];
}

/** Stores of `project_exports`: one row per project and user, holding the current job and the last archive. */
export const exportStore = {
  /** The caller's export of a project, or null. */
  async find(db: Db, projectId: number, userId: number): Promise<ExportRow | null> {
    return (await db<ExportRow>('project_exports').where({ project_id: projectId, user_id: userId }).first()) ?? null;
  },

  /** The export whose current job is `jobId`, locked for the transaction, or null (a stale or unknown job). */
  async lockJob(trx: Knex.Transaction, jobId: string): Promise<ExportRow | null> {
    return (await trx<ExportRow>('project_exports').where({ job_id: jobId }).forUpdate().first()) ?? null;
  },

  /**
   * Starts a new job for the project and user, dropping the previous archive (GitLab removes the
   * caller's export file before it queues the next). Returns the key of the archive that was dropped.
   */
  async startJob(trx: Knex.Transaction, job: NewJob): Promise<string | null> {
    const previous = await trx<ExportRow>('project_exports').where({ project_id: job.projectId, user_id: job.userId }).forUpdate().first();
    const values = {
      job_id: job.jobId, job_status: 'queued' as const, description: job.description,
      upload_url: job.upload?.url ?? null, upload_method: job.upload?.method ?? null, upload_headers: JSON.stringify(job.upload?.headers ?? {}),
      parts_expected: job.parts, parts_received: JSON.stringify({}), archive_key: null, archive_name: null, archive_size: null,
      counts: JSON.stringify({}), error: null, started_at: null, finished_at: null, updated_at: trx.fn.now(), requested_at: trx.fn.now(), redrives: 0,
    };
    if (previous) await trx('project_exports').where({ id: previous.id }).update(values);
    else await trx('project_exports').insert({ project_id: job.projectId, user_id: job.userId, ...values });
    return previous?.archive_key ?? null;
  },

  /** Records one part's counts (idempotent: a redelivered part overwrites its own entry) and marks the job started. */
  async recordPart(trx: Knex.Transaction, row: ExportRow, part: string, counts: Record<string, number>): Promise<ExportRow> {
    const received = { ...row.parts_received, [part]: counts };
    const [updated] = await trx<ExportRow>('project_exports')
      .where({ id: row.id })
      .update({ parts_received: JSON.stringify(received) as never, job_status: 'started', started_at: row.started_at ?? trx.fn.now(), updated_at: trx.fn.now() } as never)
      .returning('*');
    return updated;
  },

  /** Marks the job finished with its archive, if `jobId` is still the current job. */
  async finish(db: Db, jobId: string, archive: { key: string; name: string; size: number }, counts: Record<string, number>): Promise<boolean> {
    const n = await db('project_exports').where({ job_id: jobId }).whereIn('job_status', ['queued', 'started']).update({
      job_status: 'finished', archive_key: archive.key, archive_name: archive.name, archive_size: archive.size,
      counts: JSON.stringify(counts), finished_at: db.fn.now(), updated_at: db.fn.now(),
    });
    return n > 0;
  },

  /** Marks the job failed with a readable error (at most 300 characters, as GitLab keeps). */
  async fail(db: Db, jobId: string, error: string): Promise<boolean> {
    const n = await db('project_exports').where({ job_id: jobId }).whereIn('job_status', ['queued', 'started', 'finished']).update({
      job_status: 'failed', error: error.slice(0, 300), updated_at: db.fn.now(),
    });
    return n > 0;
  },
};
