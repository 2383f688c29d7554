import type { SshCertificate } from '../ssh-certificates/ssh-certificate';
import { iso } from '../sql';

/** `SshCertificate`: `{id, title, key, created_at}` (never the fingerprint). */
export function toSshCertificate(c: SshCertificate) {
  return { id: c.id, title: c.title, key: c.key, created_at: iso(c.createdAt) };
}
