import type { Knex } from 'knex';
import type { RunnerLookup } from '../jobs/jobs-finder';
import type { CreateDeps } from '../pipelines/create-pipeline';

/** What the pipelines and jobs routes need: the database, pipeline creation's parts, runner summaries. */
export interface PipelineRouteDeps {
  db: Knex;
  creation: CreateDeps;
  runners?: RunnerLookup;
}
