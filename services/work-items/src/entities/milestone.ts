import type { Milestone } from '../milestones/milestone-store';
import { timestamps } from './timestamps';

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
export function toMilestone(m: Milestone, urls: MilestoneUrls): Record<string, unknown> {
  const owner = m.projectId !== null
    ? { project_id: m.projectId }
    : { group_id: m.groupId };
  const path = m.projectId !== null
    ? `${urls.projectPaths.get(m.projectId) ?? ''}/-/milestones/${m.iid}`
    : `groups/${urls.groupPaths.get(m.groupId as number) ?? ''}/-/milestones/${m.iid}`;
  return {
    id: m.id,
    iid: m.iid,
    ...owner,
    title: m.title,
    description: m.description,
    state: m.state,
    ...timestamps(m),
    due_date: m.dueDate,
    start_date: m.startDate,
    expired: m.dueDate !== null && m.dueDate < today(),
    web_url: `${urls.base}/${path}`,
  };
}
