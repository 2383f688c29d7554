import { bool, int, str, type ConfigOf, type Schema } from '@anvil/config';

/** Env vars the project-transfer service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** GitLab's `project_export_limit`: export requests per user per minute; 0 disables it. */
  PROJECT_EXPORT_LIMIT: int(6, 0),
  /** GitLab's `project_download_export_limit`: downloads per user and namespace per minute; 0 disables it. */
  PROJECT_DOWNLOAD_EXPORT_LIMIT: int(1, 0),
  /** The services that each write one part of every export (comma-separated). */
  EXPORT_PARTS: str('identity,work-items'),
  /** `allow_local_requests_from_web_hooks_and_services`: export uploads may go to loopback and private networks. */
  ALLOW_LOCAL_REQUESTS: bool(false),
} satisfies Schema;

/** This service's settings. */
export type TransferConfig = ConfigOf<typeof configSchema>;
