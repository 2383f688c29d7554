import type { Epic, Iteration } from '../epics/epic-store';
import { timestamps } from './timestamps';

/** GitLab's `EpicBaseEntity`, as embedded in issues. */
export function toEpicBase(e: Epic, base: string, groupPath: string): Record<string, unknown> {
  return { id: e.id, iid: e.iid, title: e.title, url: `${base}/groups/${groupPath}/-/epics/${e.iid}`, group_id: e.groupId };
}

/** GitLab's `Epic` entity (thin: the fields this service keeps). */
export function toEpic(e: Epic, base: string, groupPath: string): Record<string, unknown> {
  return {
    id: e.id,
    iid: e.iid,
    group_id: e.groupId,
    title: e.title,
    description: e.description,
    state: e.state,
    confidential: e.confidential,
    web_url: `${base}/groups/${groupPath}/-/epics/${e.iid}`,
    references: { short: `&${e.iid}`, relative: `&${e.iid}`, full: `${groupPath}&${e.iid}` },
    author_id: e.authorId,
    ...timestamps(e),
  };
}

/** GitLab's `Iteration` entity. */
export function toIteration(it: Iteration, base: string, groupPath: string): Record<string, unknown> {
  return {
    id: it.id,
    iid: it.iid,
    sequence: it.sequence,
    group_id: it.groupId,
    title: it.title,
    description: it.description,
    state: it.state,
    ...timestamps(it),
    start_date: it.startDate,
    due_date: it.dueDate,
    web_url: `${base}/groups/${groupPath}/-/iterations/${it.id}`,
  };
}
