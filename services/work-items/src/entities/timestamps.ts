/** What every timestamped domain object carries. */
export interface Timestamped {
  createdAt: Date;
  updatedAt: Date;
}

/** `created_at` and `updated_at` as GitLab writes them (ISO 8601 in UTC, milliseconds). */
export function timestamps(t: Timestamped): { created_at: string; updated_at: string } {
  return { created_at: t.createdAt.toISOString(), updated_at: t.updatedAt.toISOString() };
}
