import type { Severity } from './severity';

/** One alert a payload describes, parsed and mapped, ready to be grouped, created or resolved. */
export interface AlertInput {
  title: string;
  description: string | null;
  startedAt: Date;
  /** The end time a resolving payload gave (null: resolve now). */
  endedAt: Date | null;
  /** The payload resolves its alert (`end_time`; `status: resolved` or a past `endsAt`). */
  resolving: boolean;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  severity: Severity;
  environment: string | null;
  /** SHA-1 hex that groups repeats; never null for the two formats Anvil reads. */
  fingerprint: string;
  /** `service_incident_markdown`: appended to an incident made from the alert. */
  incidentMarkdown: string | null;
  /** What arrived: the whole native body, or the webhook element. */
  payload: Record<string, unknown>;
  /** Extra attributes kept beside the mapped ones. */
  details: Record<string, unknown>;
}
