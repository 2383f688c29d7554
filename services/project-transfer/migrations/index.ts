import type { Migration } from '@anvil/db';
import * as createOutbox from './20261122000000_create_outbox';
import * as createTransfers from './20261126000100_create_transfers';
import * as createInstanceSettings from './20261127007100_create_instance_settings';
import * as addTransferRedrives from './20261128000100_add_transfer_redrives';

/** This service's migrations, in order. */
export const migrations: Migration[] = [
  { name: '20261122000000_create_outbox', ...createOutbox },
  { name: '20261126000100_create_transfers', ...createTransfers },
  { name: '20261127007100_create_instance_settings', ...createInstanceSettings },
  { name: '20261128000100_add_transfer_redrives', ...addTransferRedrives },
];
