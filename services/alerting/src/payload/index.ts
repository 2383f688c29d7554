import type { AlertInput } from './alert-input';
import { parseNative } from './native';
import { isWebhookPayload, parseWebhook } from './webhook';

export type { AlertInput } from './alert-input';
export { MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH, parseNotifyBody, readLimitedBody } from './limits';
export { NotifyRefusal } from './refusal';

/** What a notify body holds: its format (chosen by shape, as GitLab chooses, not by URL) and its alerts. */
export interface ParsedPayload {
  format: 'native' | 'webhook';
  alerts: AlertInput[];
}

/** Parses a notify body in whichever of the two formats its shape says. */
export function parsePayload(body: Record<string, unknown>, now = new Date()): ParsedPayload {
  if (isWebhookPayload(body)) return { format: 'webhook', alerts: parseWebhook(body, now) };
  return { format: 'native', alerts: [parseNative(body, now)] };
}
