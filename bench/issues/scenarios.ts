import type { Seeded } from './seed';

/** One endpoint under load: the paths (relative to /api/v4) wrk cycles through. */
export interface Scenario {
  name: string;
  title: string;
  paths: string[];
}

/** The four filters of the filtered lists; `assignee` is one of the seeded assignees' usernames. */
export const FILTERS = (assignee: string): string[] => ['state=opened&labels=label-3', `state=opened&assignee_username=${assignee}`, 'milestone=m3&state=opened', 'labels=bug&not[labels]=label-1&order_by=updated_at'];

/**
 * The endpoints the issue asks for, each with and without filters, over all ten projects; and the
 * notes of the issues that carry them, first and last page (default order: newest first).
 */
export function scenarios(d: Seeded): Scenario[] {
  const p = d.projectIds;
  const filters = FILTERS(d.usernames[2]);
  const lastNotesPage = Math.max(1, Math.ceil(d.notesPerIssue / 20));
  const iids = Array.from({ length: 200 }, (_, i) => 1 + ((i * 7919) % d.issuesPerProject));
  return [
    { name: 'project', title: 'GET /projects/:id/issues', paths: p.map((id) => `/projects/${id}/issues`) },
    { name: 'project-filtered', title: 'GET /projects/:id/issues (filters)', paths: p.flatMap((id) => filters.map((f) => `/projects/${id}/issues?${f}`)) },
    { name: 'group', title: 'GET /groups/:id/issues', paths: [`/groups/${d.groupId}/issues`, `/groups/${d.groupId}/issues?page=2`] },
    { name: 'group-filtered', title: 'GET /groups/:id/issues (filters)', paths: filters.map((f) => `/groups/${d.groupId}/issues?${f}`) },
    { name: 'global', title: 'GET /issues?scope=all', paths: ['/issues?scope=all', '/issues?scope=all&page=2'] },
    { name: 'global-filtered', title: 'GET /issues?scope=all (filters)', paths: filters.map((f) => `/issues?scope=all&${f}`) },
    { name: 'single', title: 'GET /projects/:id/issues/:iid', paths: iids.map((iid, i) => `/projects/${p[i % p.length]}/issues/${iid}`) },
    { name: 'notes-first', title: 'GET /projects/:id/issues/:iid/notes (first page)', paths: d.notedIids.map((iid) => `/projects/${p[0]}/issues/${iid}/notes`) },
    { name: 'notes-last', title: 'GET /projects/:id/issues/:iid/notes (last page)', paths: d.notedIids.map((iid) => `/projects/${p[0]}/issues/${iid}/notes?page=${lastNotesPage}`) },
  ];
}
