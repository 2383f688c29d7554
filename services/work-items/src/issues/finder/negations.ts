import type { Knex } from 'knex';
import { isAny, isNone, NegatedFilters } from './filters';
import type { FilterStep, FinderScope } from './types';
import { labelIdsTitled } from './positive';

type NotStep = (q: Knex.QueryBuilder, n: NegatedFilters, s: FinderScope) => void;

const USER_BY_NAME = '(SELECT id FROM users WHERE lower(username) = lower(?) AND NOT deleted)';

/** `not[labels]`: none of the titles among the issue's own label ids. */
const notLabels: NotStep = (q, n, s) => {
  if (!n.labels?.length) return;
  const ids = labelIdsTitled(s, true);
  q.whereRaw(`NOT i.label_ids && ARRAY(${ids.sql})`, [n.labels, ...ids.bindings]);
};

/** `not[milestone]` (a title) and `not[milestone_id]` (`Upcoming`, `Started`, `None`, `Any`). */
const notMilestone: NotStep = (q, n, s) => {
  const id = n.milestoneId?.toLowerCase();
  if (id === 'upcoming') {
    q.whereRaw("i.milestone_id IN (SELECT id FROM milestones WHERE state = 'active' AND due_date <= ?::date)", [s.today]);
  } else if (id === 'started') {
    q.whereRaw("i.milestone_id IN (SELECT id FROM milestones WHERE state = 'active' AND start_date > ?::date)", [s.today]);
  } else if (id === 'none') q.whereNotNull('i.milestone_id');
  else if (id === 'any') q.whereNull('i.milestone_id');
  if (n.milestone !== undefined && n.milestone !== '') {
    if (isNone(n.milestone)) q.whereNotNull('i.milestone_id');
    else if (isAny(n.milestone)) q.whereNull('i.milestone_id');
    else q.whereRaw('(i.milestone_id IS NULL OR i.milestone_id NOT IN (SELECT id FROM milestones WHERE title = ?))', [n.milestone]);
  }
};

const notPeople: NotStep = (q, n) => {
  if (n.authorId !== undefined) q.whereNot('i.author_id', n.authorId);
  else if (n.authorUsername !== undefined) q.whereRaw(`i.author_id IS DISTINCT FROM ${USER_BY_NAME}`, [n.authorUsername]);
  if (n.assigneeId !== undefined) q.whereRaw('NOT i.assignee_ids @> ARRAY[?]::int[]', [n.assigneeId]);
  else if (n.assigneeUsername?.length) {
    q.whereRaw('NOT i.assignee_ids && ARRAY(SELECT id FROM users WHERE lower(username) = ANY(?))', [n.assigneeUsername.map((x) => x.toLowerCase())]);
  }
};

const notOthers: NotStep = (q, n, s) => {
  if (n.iids?.length) q.whereNotIn('i.iid', n.iids);
  if (n.myReactionEmoji !== undefined && s.viewer.user) {
    q.whereRaw("NOT EXISTS (SELECT 1 FROM award_emoji e WHERE e.awardable_type = 'Issue' AND e.awardable_id = i.id AND e.user_id = ? AND e.name = ?)", [s.viewer.user.id, n.myReactionEmoji]);
  }
  if (n.weight !== undefined) q.whereRaw('i.weight IS DISTINCT FROM ?', [n.weight]);
  if (n.epicId !== undefined) q.whereRaw('i.epic_id IS DISTINCT FROM ?', [n.epicId]);
  if (n.healthStatus !== undefined) q.whereRaw('i.health_status IS DISTINCT FROM ?', [n.healthStatus]);
  if (typeof n.iterationId === 'string' && n.iterationId.toLowerCase() === 'current') {
    q.whereRaw('(i.iteration_id IS NULL OR i.iteration_id NOT IN (SELECT id FROM iterations WHERE start_date <= ?::date AND due_date >= ?::date))', [s.today, s.today]);
  } else if (n.iterationId !== undefined) q.whereRaw('i.iteration_id IS DISTINCT FROM ?', [n.iterationId]);
  if (n.iterationTitle !== undefined) q.whereRaw('(i.iteration_id IS NULL OR i.iteration_id NOT IN (SELECT id FROM iterations WHERE title = ?))', [n.iterationTitle]);
};

const steps: NotStep[] = [notLabels, notMilestone, notPeople, notOthers];

/** The `not[...]` steps (each leaves the query unchanged when its key is absent). */
export const negatedFilters: FilterStep[] = [(q, f, s) => {
  if (!f.not) return;
  for (const step of steps) step(q, f.not, s);
}];
