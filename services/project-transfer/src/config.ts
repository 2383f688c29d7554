import { bool, int, str, type ConfigOf, type Schema } from '@anvil/config';

/** Env vars the project-transfer service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** Postgres connections per process (budget: README's Database section); the API and the worker deployment alike. */
  DB_POOL_MAX: int(4, 1, 100),
  /** Initial `project_export_limit` (export requests per user per minute; 0 disables it) until identity publishes the settings. */
  PROJECT_EXPORT_LIMIT: int(6, 0),
  /** Initial `project_download_export_limit` (downloads per user and namespace per minute; 0 disables it) until identity publishes the settings. */
  PROJECT_DOWNLOAD_EXPORT_LIMIT: int(1, 0),
  /** Initial `project_import_limit` (imports per user per minute; 0 disables it) until identity publishes the settings. */
  PROJECT_IMPORT_LIMIT: int(6, 0),
  /** Initial `max_import_size` in MB (0: unlimited) until identity publishes the settings. */
  MAX_IMPORT_SIZE_MB: int(0, 0),
  /** Initial `max_export_size` in MB (0: unlimited; an export whose archive is larger fails) until identity publishes the settings. */
  MAX_EXPORT_SIZE_MB: int(0, 0),
  /** Most entries an import archive may hold. */
  IMPORT_MAX_ENTRIES: int(10_000, 1),
  /** Most decompressed bytes an import archive may hold (MB). */
  IMPORT_MAX_UNPACKED_MB: int(4096, 1),
  /** The services that each import one part of every import (comma-separated). */
  IMPORT_PARTS: str('identity,work-items,pipelines'),
  /** The services that each write one part of every export (comma-separated). */
  EXPORT_PARTS: str('identity,work-items,pipelines'),
  /** Initial `allow_local_requests_from_web_hooks_and_services` (export uploads and import URLs may reach loopback and private networks) until identity publishes the settings. */
  ALLOW_LOCAL_REQUESTS: bool(false),
  /** The S3-compatible endpoint `remote-import-s3` reads from; empty means AWS S3 in the request's region. */
  IMPORT_S3_ENDPOINT: str(''),
  /** How often a worker process sweeps for stalled export and import jobs (seconds; 0: never). */
  TRANSFER_SWEEP_INTERVAL_SECONDS: int(60, 0),
  /** A running job whose last progress is older than this (seconds) is re-driven: its request published again. */
  TRANSFER_STALL_SECONDS: int(1800, 1),
  /** Re-drives of a job; when it stalls after the last, it is failed. */
  TRANSFER_MAX_REDRIVES: int(3, 0),
  /** A stalled export older than this (seconds from its request) is failed: GitLab's `EXPORT_JOBS_EXPIRATION`, 6 h. */
  EXPORT_JOBS_EXPIRATION_SECONDS: int(21_600, 1),
  /** A stalled import older than this (seconds) is failed with GitLab's `import_error`: its `IMPORT_JOBS_EXPIRATION`, 24 h. */
  IMPORT_JOBS_EXPIRATION_SECONDS: int(86_400, 1),
} satisfies Schema;

/** This service's settings. */
export type TransferConfig = ConfigOf<typeof configSchema>;
