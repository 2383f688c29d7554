import type { Migration } from '@anvil/db';
import * as createOutbox from './20261122000000_create_outbox';
import * as createRepository from './20261126000100_create_repository';
import * as createPipelines from './20261126000200_create_pipelines';
import * as createRunners from './20261126000300_create_runners';

/** This service's migrations, in order. */
export const migrations: Migration[] = [
  { name: '20261122000000_create_outbox', ...createOutbox },
  { name: '20261126000100_create_repository', ...createRepository },
  { name: '20261126000200_create_pipelines', ...createPipelines },
  { name: '20261126000300_create_runners', ...createRunners },
];
