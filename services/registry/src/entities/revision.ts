import type { Revision } from '../packages/types';

/** GitLab's `Packages::Conan::Revision`: `{revision, time}`. */
export interface RevisionEntity {
  revision: string;
  time: string;
}

/**
 * A revision's creation time as the spec writes it: UTC with milliseconds and a `+0000` offset
 * (`2024-01-01T12:00:00.334+0000`). Spec: shared/spec/registry-and-transfer.md ("Revision entry").
 */
export function revisionTime(at: Date): string {
  return at.toISOString().replace(/Z$/, '+0000');
}

/** One revision entry. */
export function toRevisionEntity(r: Revision): RevisionEntity {
  return { revision: r.revision, time: revisionTime(r.createdAt) };
}

/** `R/revisions` and `PR/revisions`: the reference string and its revisions, newest first. */
export function toRevisionsList(reference: string, revisions: Revision[]): { reference: string; revisions: RevisionEntity[] } {
  return { reference, revisions: revisions.map(toRevisionEntity) };
}
