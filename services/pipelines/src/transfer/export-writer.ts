import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Storage } from '@anvil/storage';
import type { JobRow } from '../jobs/job-row';
import type { Pipeline } from '../pipelines/pipeline-row';
import { pipelineLine } from './export-lines';

/** Pipelines read per query; each page's jobs come in one more query (no N+1). */
export const BATCH = 200;

/** The file pipelines' part writes, relative to the export prefix. */
export const PIPELINES_FILE = 'tree/project/ci_pipelines.ndjson';

/** What pipelines' part of an export wrote. */
export interface PartResult {
  files: string[];
  counts: Record<string, number>;
}

/** Keyset pages of the project's pipelines, by id. */
async function* pages(db: Knex, projectId: number): AsyncGenerator<Pipeline[]> {
  let after = 0;
  for (;;) {
    const rows: Pipeline[] = await db('pipelines').where({ project_id: projectId }).where('id', '>', after).orderBy('id').limit(BATCH);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1].id;
    if (rows.length < BATCH) return;
  }
}

async function* lines(db: Knex, projectId: number, counts: Record<string, number>): AsyncGenerator<string> {
  for await (const page of pages(db, projectId)) {
    const jobs: JobRow[] = await db('jobs').whereIn('pipeline_id', page.map((p) => p.id)).orderBy('id');
    const byPipeline = new Map<number, JobRow[]>();
    for (const j of jobs) byPipeline.set(j.pipeline_id, [...(byPipeline.get(j.pipeline_id) ?? []), j]);
    for (const p of page) {
      const line = pipelineLine(p, byPipeline.get(p.id) ?? []);
      const stages = line.stages as { builds: unknown[]; bridges: unknown[] }[];
      counts.ci_pipelines += 1;
      counts.stages += stages.length;
      counts.builds += stages.reduce((s, st) => s + st.builds.length + st.bridges.length, 0);
      yield JSON.stringify(line) + '\n';
    }
  }
}

/**
 * Writes pipelines' part of an export under `prefix`: `tree/project/ci_pipelines.ndjson`, streamed
 * page by page. Writing again overwrites the same key.
 */
export async function writePipelinesPart(db: Knex, storage: Storage, prefix: string, projectId: number): Promise<PartResult> {
  const counts = { ci_pipelines: 0, stages: 0, builds: 0 };
  await storage.put(prefix + PIPELINES_FILE, Readable.from(lines(db, projectId, counts)));
  return { files: [PIPELINES_FILE], counts };
}
