import type { Knex } from 'knex';
import type { Storage } from '@anvil/storage';
import type { ProjectClient } from '../identity/project-client';
import type { RateLimiter } from '../rate-limit';

/** What the routes need. */
export interface RouteDeps {
  db: Knex;
  storage: Storage;
  projects: ProjectClient;
  parts: string[];
  allowLocalRequests: boolean;
  exportLimiter: RateLimiter;
  downloadLimiter: RateLimiter;
  importLimiter: RateLimiter;
  /** `max_import_size` in bytes (0: unlimited). */
  maxImportBytes: number;
  /** The S3 endpoint `remote-import-s3` reads from (empty: AWS). */
  s3Endpoint: string;
}
