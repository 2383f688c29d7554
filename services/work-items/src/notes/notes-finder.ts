import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** GitLab's notes filters (`UserPreference::NOTES_FILTERS`). */
export const ACTIVITY_FILTERS = ['all_notes', 'only_comments', 'only_activity'] as const;

/** The list parameters of GitLab's Notes API. */
export interface NotesParams {
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  activityFilter: (typeof ACTIVITY_FILTERS)[number];
}

/**
 * The notes of one noteable as GitLab's notes list reads them: `with_notes_filter`, then
 * `created_at` ordered as `id`, `updated_at` as `updated_at, id`, both in `sort` direction.
 * Readability is not part of the query: GitLab paginates this relation and drops unreadable
 * notes from the page afterwards.
 */
export class NotesFinder {
  constructor(private readonly db: Db, private readonly noteable: { type: string; id: number }, private readonly params: NotesParams) {}

  /** The ordered query (not yet paginated) of `NoteRow`s. */
  execute(): Knex.QueryBuilder {
    const q = this.db('notes').where({ noteable_type: this.noteable.type, noteable_id: this.noteable.id });
    this.byActivity(q);
    return this.sorted(q);
  }

  private byActivity(q: Knex.QueryBuilder): void {
    if (this.params.activityFilter === 'only_comments') q.where({ system: false });
    if (this.params.activityFilter === 'only_activity') q.where({ system: true });
  }

  private sorted(q: Knex.QueryBuilder): Knex.QueryBuilder {
    if (this.params.orderBy === 'updated_at') q.orderBy('updated_at', this.params.sort);
    return q.orderBy('id', this.params.sort);
  }
}
