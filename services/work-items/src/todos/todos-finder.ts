import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** The list parameters of GitLab's to-dos API. */
export interface TodosParams {
  state?: string;
  action?: string;
  projectId?: number;
  groupId?: number;
  authorId?: number;
  type?: string;
}

/** GitLab's `TodosFinder`: one user's to-dos, one `by<Filter>` step per parameter, newest first. */
export class TodosFinder {
  constructor(private readonly db: Db, private readonly userId: number, private readonly params: TodosParams) {}

  /** The ordered query (not yet paginated) of `TodoRow`s. */
  execute(): Knex.QueryBuilder {
    const { state, action, projectId, groupId, authorId, type } = this.params;
    const q = this.db('todos').where({ user_id: this.userId });
    if (state && state !== 'all') q.where({ state });
    if (action) q.where({ action });
    if (projectId !== undefined) q.where({ project_id: projectId });
    if (groupId !== undefined) q.where({ group_id: groupId });
    if (authorId !== undefined) q.where({ author_id: authorId });
    if (type) q.where({ target_type: type });
    return q.orderBy('id', 'desc');
  }
}
