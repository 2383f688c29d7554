/** A row of `emails` (a secondary address; the primary lives on `users.email`). */
export interface EmailRow {
  id: number;
  user_id: number;
  email: string;
  confirmed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A secondary e-mail address as the domain sees it. */
export interface Email {
  id: number;
  userId: number;
  email: string;
  confirmedAt: Date | null;
}

/** Maps an `emails` row to an Email. */
export function toEmail(row: EmailRow): Email {
  return { id: row.id, userId: row.user_id, email: row.email, confirmedAt: row.confirmed_at };
}

/** GitLab's (Devise's) e-mail format: something, one `@`, something, no spaces. */
export const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+$/;

/** An address as GitLab stores a secondary one: trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
