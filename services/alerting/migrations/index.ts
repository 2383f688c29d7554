import type { Migration } from '@anvil/db';
import * as createOutbox from './20261122000000_create_outbox';
import * as createAlerting from './20261126000100_create_alerting';

/** This service's migrations, in order. */
export const migrations: Migration[] = [
  { name: '20261122000000_create_outbox', ...createOutbox },
  { name: '20261126000100_create_alerting', ...createAlerting },
];
