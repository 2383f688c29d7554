import type { Revision } from '../packages/types';

/** GitLab's `Packages::Conan::Revision`: `{revision, time}`, time in UTC with milliseconds. */
export interface RevisionEntity {
  revision: string;
  time: string;
}

/** One revision entry. */
export function toRevisionEntity(r: Revision): RevisionEntity {
  return { revision: r.revision, time: r.createdAt.toISOString() };
}

/** `R/revisions` and `PR/revisions`: the reference string and its revisions, newest first. */
export function toRevisionsList(reference: string, revisions: Revision[]): { reference: string; revisions: RevisionEntity[] } {
  return { reference, revisions: revisions.map(toRevisionEntity) };
}
