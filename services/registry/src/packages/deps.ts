import type { Knex } from '@anvil/db';
import type { Logger } from '@anvil/http';
import type { Storage } from '@anvil/storage';

/** What the registry's domain code needs: the database, the object store and its limits. */
export interface RegistryDeps {
  db: Knex;
  storage: Storage;
  log: Logger;
  /** GitLab's `file_store`: 1 local disk, 2 object storage. */
  fileStore: 1 | 2;
  maxFileSize: number;
}
