import type { Knex } from 'knex';
import { milestonesOwnedBy } from './milestone-store';

type Db = Knex | Knex.Transaction;

/** The list parameters of GitLab's milestones API. */
export interface MilestonesParams {
  state?: string;
  title?: string;
  search?: string;
  iids?: number[];
}

/**
 * GitLab's `MilestonesFinder`: the milestones of a project and/or groups (the caller passes the
 * ancestors when they are asked for), one `by<Filter>` step per parameter, by due date then id.
 */
export class MilestonesFinder {
  constructor(private readonly db: Db, private readonly projectId: number | null, private readonly groupIds: number[], private readonly params: MilestonesParams) {}

  /** The ordered query (not yet paginated) of `MilestoneRow`s. */
  execute(): Knex.QueryBuilder {
    const q = milestonesOwnedBy(this.db, this.projectId, this.groupIds);
    this.byState(q);
    this.byTitle(q);
    this.bySearch(q);
    this.byIids(q);
    return q.orderBy('m.due_date', 'asc').orderBy('m.id', 'asc');
  }

  private byState(q: Knex.QueryBuilder): void {
    if (this.params.state) q.where('m.state', this.params.state);
  }

  private byTitle(q: Knex.QueryBuilder): void {
    if (this.params.title) q.where('m.title', this.params.title);
  }

  private bySearch(q: Knex.QueryBuilder): void {
    const { search } = this.params;
    if (search) q.where((w) => w.whereILike('m.title', `%${search}%`).orWhereILike('m.description', `%${search}%`));
  }

  private byIids(q: Knex.QueryBuilder): void {
    if (this.params.iids?.length) q.whereIn('m.iid', this.params.iids);
  }
}
