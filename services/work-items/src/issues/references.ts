/**
 * Issue references as GitLab prints them (`IssuableReferences`): `short` is `#iid`, `full` is
 * `<project path>#iid`, and `relative` depends on where the list was asked from.
 */

/** Where a request looks from: a project, a group, or nowhere (the instance-wide list). */
export type ReferenceOrigin = { kind: 'project'; id: number; namespaceId: number } | { kind: 'group'; id: number } | { kind: 'none' };

/** The project an issue lives in, as references need it. */
export interface ReferencedProject {
  id: number;
  path: string;
  pathWithNamespace: string;
  namespaceId: number;
}

/** `short`, `relative` and `full` references of an issue (`prefix` `#`, or `!` for merge requests). */
export function references(project: ReferencedProject, iid: number, origin: ReferenceOrigin, prefix = '#'): { short: string; relative: string; full: string } {
  const short = `${prefix}${iid}`;
  const full = `${project.pathWithNamespace}${short}`;
  return { short, relative: relative(project, short, full, origin), full };
}

function relative(project: ReferencedProject, short: string, full: string, origin: ReferenceOrigin): string {
  switch (origin.kind) {
    case 'none':
      return short;
    case 'project':
      if (origin.id === project.id) return short;
      return origin.namespaceId === project.namespaceId ? `${project.path}${short}` : full;
    case 'group':
      return origin.id === project.namespaceId ? `${project.path}${short}` : full;
  }
}
