import type { Knex } from 'knex';

const MILESTONE_DUE = '(SELECT m.due_date FROM milestones m WHERE m.id = i.milestone_id)';
const LABEL_PRIORITY = '(SELECT min(l.priority) FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id)';

/**
 * GitLab's issue orders (`<order_by>_<sort>`), each ending in the id so pages are stable.
 * Nullable keys (due dates, positions, weights, milestone due dates, label priorities) sort last.
 */
export function applyOrder(q: Knex.QueryBuilder, orderBy: string, sort: 'asc' | 'desc'): void {
  const dir = sort === 'asc' ? 'ASC' : 'DESC';
  const nullsLast = (expr: string) => q.orderByRaw(`${expr} ${dir} NULLS LAST`);
  switch (orderBy) {
    case 'updated_at':
      q.orderBy('i.updated_at', sort);
      break;
    case 'due_date':
      nullsLast('i.due_date');
      break;
    case 'relative_position':
      nullsLast('i.relative_position');
      break;
    case 'title':
      q.orderBy('i.title', sort);
      break;
    case 'popularity':
      q.orderBy('i.upvotes', sort);
      break;
    case 'weight':
      nullsLast('i.weight');
      break;
    case 'milestone_due':
      nullsLast(MILESTONE_DUE);
      break;
    case 'label_priority':
      nullsLast(LABEL_PRIORITY);
      break;
    case 'priority':
      nullsLast(MILESTONE_DUE);
      nullsLast(LABEL_PRIORITY);
      break;
    default:
      q.orderBy('i.created_at', sort);
  }
  q.orderBy('i.id', sort);
}
