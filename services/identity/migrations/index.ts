import type { Migration } from '@anvil/db';
import * as createOutbox from './20261122000000_create_outbox';

/** This service's migrations, in order. */
export const migrations: Migration[] = [{ name: '20261122000000_create_outbox', ...createOutbox }];
