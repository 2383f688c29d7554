import type { MilestoneRow } from '../milestones/milestone-store';

/** Where a milestone's `web_url` points: its project's or group's path. */
export interface MilestoneUrls {
  base: string;
  projectPaths: Map<number, string>;
  groupPaths: Map<number, string>;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** GitLab's `Milestone` entity (`project_id` or `group_id`, whichever owns it). */
export function toMilestone(m: MilestoneRow, urls: MilestoneUrls): Record<string, unknown> {
  const owner = m.project_id !== null
    ? { project_id: m.project_id }
    : { group_id: m.group_id };
  const path = m.project_id !== null
    ? `${urls.projectPaths.get(m.project_id) ?? ''}/-/milestones/${m.iid}`
    : `groups/${urls.groupPaths.get(m.group_id as number) ?? ''}/-/milestones/${m.iid}`;
  return {
    id: m.id,
    iid: m.iid,
    ...owner,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: new Date(m.created_at).toISOString(),
    updated_at: new Date(m.updated_at).toISOString(),
    due_date: m.due_date,
    start_date: m.start_date,
    expired: m.due_date !== null && m.due_date < today(),
    web_url: `${urls.base}/${path}`,
  };
}
