import type { Migration } from '@anvil/db';
import * as createOutbox from './20261122000000_create_outbox';
import * as createConanTables from './20261122000100_create_conan_tables';
import * as fileReplacedKey from './20261122000200_file_replaced_key';

/** This service's migrations, in order. */
export const migrations: Migration[] = [
  { name: '20261122000000_create_outbox', ...createOutbox },
  { name: '20261122000100_create_conan_tables', ...createConanTables },
  { name: '20261122000200_file_replaced_key', ...fileReplacedKey },
];
