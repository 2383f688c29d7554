import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** The list parameters of GitLab's group epics API that this thin epic keeps. */
export interface EpicsParams {
  state: 'opened' | 'closed' | 'all';
  search?: string;
}

/** GitLab's `EpicsFinder` for one group: one `by<Filter>` step per parameter, newest first. */
export class EpicsFinder {
  constructor(private readonly db: Db, private readonly groupId: number, private readonly params: EpicsParams) {}

  /** The ordered query (not yet paginated) of `EpicRow`s. */
  execute(): Knex.QueryBuilder {
    const q = this.db('epics').where({ group_id: this.groupId });
    this.byState(q);
    this.bySearch(q);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc');
  }

  private byState(q: Knex.QueryBuilder): void {
    if (this.params.state !== 'all') q.where({ state: this.params.state });
  }

  private bySearch(q: Knex.QueryBuilder): void {
    const { search } = this.params;
    if (search) q.where((w) => w.whereILike('title', `%${search}%`).orWhereILike('description', `%${search}%`));
  }
}
