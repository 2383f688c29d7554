import type { Knex } from 'knex';
import type { Storage } from '@anvil/storage';
import type { ProjectClient } from '../identity/project-client';
import type { RateLimiter } from '../rate-limit';
import type { LiveSettings } from '../settings/live-settings';

/** What the routes need. */
export interface RouteDeps {
  db: Knex;
  storage: Storage;
  projects: ProjectClient;
  parts: string[];
  /** The instance settings in force (`fresh` before use). */
  settings: LiveSettings;
  /** `allow_local_requests_from_web_hooks_and_services` as last read. */
  readonly allowLocalRequests: boolean;
  /** `outbound_local_requests_whitelist` as last read. */
  readonly localAllowlist: string[];
  exportLimiter: RateLimiter;
  downloadLimiter: RateLimiter;
  importLimiter: RateLimiter;
  /** The S3 endpoint `remote-import-s3` reads from (empty: AWS). */
  s3Endpoint: string;
}
