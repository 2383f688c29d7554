import type { EpicRow, IterationRow } from '../epics/epic-store';

/** GitLab's `EpicBaseEntity`, as embedded in issues. */
export function toEpicBase(e: EpicRow, base: string, groupPath: string): Record<string, unknown> {
  return { id: e.id, iid: e.iid, title: e.title, url: `${base}/groups/${groupPath}/-/epics/${e.iid}`, group_id: e.group_id };
}

/** GitLab's `Epic` entity (thin: the fields this service keeps). */
export function toEpic(e: EpicRow, base: string, groupPath: string): Record<string, unknown> {
  return {
    id: e.id,
    iid: e.iid,
    group_id: e.group_id,
    title: e.title,
    description: e.description,
    state: e.state,
    confidential: e.confidential,
    web_url: `${base}/groups/${groupPath}/-/epics/${e.iid}`,
    references: { short: `&${e.iid}`, relative: `&${e.iid}`, full: `${groupPath}&${e.iid}` },
    author_id: e.author_id,
    created_at: new Date(e.created_at).toISOString(),
    updated_at: new Date(e.updated_at).toISOString(),
  };
}

/** GitLab's `Iteration` entity. */
export function toIteration(it: IterationRow, base: string, groupPath: string): Record<string, unknown> {
  return {
    id: it.id,
    iid: it.iid,
    sequence: it.sequence,
    group_id: it.group_id,
    title: it.title,
    description: it.description,
    state: it.state,
    created_at: new Date(it.created_at).toISOString(),
    updated_at: new Date(it.updated_at).toISOString(),
    start_date: it.start_date,
    due_date: it.due_date,
    web_url: `${base}/groups/${groupPath}/-/iterations/${it.id}`,
  };
}
