import type { Knex } from 'knex';
import type { AlertStatus } from './alert-row';

/** The sort orders of the alerts list (GitLab's `AlertManagement::AlertsFinder` sorts). */
export const ALERT_SORTS = [
  'created_at_asc', 'created_at_desc', 'updated_at_asc', 'updated_at_desc', 'started_at_asc', 'started_at_desc', 'ended_at_asc', 'ended_at_desc',
  'event_count_asc', 'event_count_desc', 'severity_asc', 'severity_desc', 'status_asc', 'status_desc',
] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];

/** The list's filters. */
export interface AlertFilters {
  status?: AlertStatus;
  search?: string;
  sort?: AlertSort;
}

/** Severity and status ranks as GitLab orders them (`severity_desc`: critical first; `status_asc`: triggered first). */
const SEVERITY_RANK = "array_position(ARRAY['info','low','medium','high','critical','unknown']::text[], severity)";
const STATUS_RANK = "array_position(ARRAY['triggered','acknowledged','resolved','ignored']::text[], status)";

/** GitLab's `AlertsFinder`: the project's alerts, each `by<Filter>` step a no-op when its parameter is absent. */
export class AlertsFinder {
  constructor(
    private readonly db: Knex,
    private readonly projectId: number,
    private readonly filters: AlertFilters,
  ) {}

  /** The ordered query (paginate it). */
  execute(): Knex.QueryBuilder {
    const q = this.db('alerts').where({ project_id: this.projectId });
    this.byStatus(q);
    this.bySearch(q);
    return this.sort(q);
  }

  private byStatus(q: Knex.QueryBuilder): void {
    if (this.filters.status) q.where({ status: this.filters.status });
  }

  /** Title, description, service, monitoring tool or a host containing the text, case-insensitive. */
  private bySearch(q: Knex.QueryBuilder): void {
    const s = this.filters.search?.trim();
    if (!s) return;
    const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q.where((w) =>
      w.whereILike('title', like).orWhereILike('description', like).orWhereILike('service', like).orWhereILike('monitoring_tool', like)
        .orWhereRaw("array_to_string(hosts, ' ') ILIKE ?", [like]),
    );
  }

  private sort(q: Knex.QueryBuilder): Knex.QueryBuilder {
    const sort = this.filters.sort ?? 'created_at_desc';
    const dir = sort.endsWith('_asc') ? 'asc' : 'desc';
    const field = sort.replace(/_(asc|desc)$/, '');
    const expr = field === 'severity' ? SEVERITY_RANK : field === 'status' ? STATUS_RANK : field;
    return q.orderByRaw(`${expr} ${dir} NULLS LAST, id ${dir}`);
  }
}
