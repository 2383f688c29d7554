import type { Knex } from 'knex';

/** A job trace's size in bytes (the end of its last chunk). */
async function traceSize(db: Knex | Knex.Transaction, jobId: number): Promise<number> {
  const row = await db('job_trace_chunks').where({ job_id: jobId }).max<{ end: string | null }>({ end: db.raw('start_offset + octet_length(data)') }).first();
  return Number(row?.end ?? 0);
}

/** What appending to a trace gave: the new size, or the size that made the range unsatisfiable. */
export type AppendResult = { ok: true; size: number } | { ok: false; size: number };

/**
 * Job traces as chunks at byte offsets (GitLab's `AppendBuildTraceService`): a patch starting at
 * `start` replaces whatever the trace holds from there (a runner resending after a 416 or a retry),
 * and one starting past the end (a gap) is refused with the current size.
 */
export const traceStore = {
  async append(db: Knex, jobId: number, start: number, data: Buffer): Promise<AppendResult> {
    return db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?, ?)', [0x7472, jobId]);
      const size = await traceSize(trx, jobId);
      if (start > size) return { ok: false, size };
      if (start < size) {
        await trx('job_trace_chunks').where({ job_id: jobId }).where('start_offset', '>=', start).delete();
        await trx('job_trace_chunks')
          .where({ job_id: jobId })
          .where('start_offset', '<', start)
          .whereRaw('start_offset + octet_length(data) > ?', [start])
          .update({ data: trx.raw('substring(data from 1 for (? - start_offset)::int)', [start]) });
      }
      if (data.length > 0) await trx('job_trace_chunks').insert({ job_id: jobId, start_offset: start, data });
      return { ok: true, size: start + data.length };
    });
  },

  /** The current size of a job's trace. */
  size: traceSize,

  /** The whole trace, chunk by chunk in order. */
  async *read(db: Knex, jobId: number): AsyncGenerator<Buffer> {
    let from = 0;
    for (;;) {
      const rows: { start_offset: string; data: Buffer }[] = await db('job_trace_chunks').where({ job_id: jobId }).where('start_offset', '>=', from).orderBy('start_offset').limit(64);
      if (rows.length === 0) return;
      for (const r of rows) yield r.data;
      const last = rows[rows.length - 1];
      from = Number(last.start_offset) + 1;
    }
  },
};
