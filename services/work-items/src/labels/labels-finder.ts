import type { Knex } from 'knex';
import type { LabelOwner } from './label-store';

type Db = Knex | Knex.Transaction;

/** The list parameters of GitLab's labels API that narrow the set. */
export interface LabelsParams {
  search?: string;
}

/**
 * GitLab's `LabelsFinder` for one owner: its labels and those of `ancestorGroupIds` (empty when
 * ancestors are not asked for), by title then id.
 */
export class LabelsFinder {
  constructor(private readonly db: Db, private readonly owner: LabelOwner, private readonly ancestorGroupIds: number[], private readonly params: LabelsParams) {}

  /** The ordered query (not yet paginated) of `LabelRow`s. */
  execute(): Knex.QueryBuilder {
    return this.bySearch(this.byOwner()).orderBy('title').orderBy('id');
  }

  private byOwner(): Knex.QueryBuilder {
    const { owner, ancestorGroupIds } = this;
    return this.db('labels').where((w) => {
      if (owner.projectId !== null) w.where('project_id', owner.projectId);
      else w.where('group_id', owner.groupId);
      if (ancestorGroupIds.length) w.orWhereIn('group_id', ancestorGroupIds);
    });
  }

  private bySearch(q: Knex.QueryBuilder): Knex.QueryBuilder {
    return this.params.search ? q.whereILike('title', `%${this.params.search}%`) : q;
  }
}
