/** A row of `group_ssh_certificates`. */
export interface SshCertificateRow {
  id: number;
  namespace_id: number;
  title: string;
  key: string;
  fingerprint: string;
  created_at: Date;
}

/** A certificate authority a top-level group trusts. */
export interface SshCertificate {
  id: number;
  groupId: number;
  title: string;
  key: string;
  fingerprint: string;
  createdAt: Date;
}

/** Maps a row to an SshCertificate. */
export function toSshCertificate(row: SshCertificateRow): SshCertificate {
  return { id: row.id, groupId: row.namespace_id, title: row.title, key: row.key, fingerprint: row.fingerprint, createdAt: row.created_at };
}
