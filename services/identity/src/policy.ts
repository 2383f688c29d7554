import { AccessLevel, Actor, canRead, Visibility } from '@anvil/auth';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@anvil/http';

/** Levels named as GitLab's policies use them. */
export const Level = AccessLevel;

/** 403 unless `actor` is an administrator or holds at least `needed` (401 for anonymous callers). */
export function requireLevel(actor: Actor | null, level: number, needed: number): void {
  if (!actor) throw new UnauthorizedError();
  if (actor.admin) return;
  if (level < needed) throw new ForbiddenError();
}

/** 401 unless a user is signed in; returns the user. */
export function requireUser(actor: Actor | null): Actor {
  if (!actor) throw new UnauthorizedError();
  return actor;
}

/** 403 unless the caller is an administrator (401 for anonymous callers). */
export function requireAdmin(actor: Actor | null): Actor {
  const a = requireUser(actor);
  if (!a.admin) throw new ForbiddenError();
  return a;
}

/**
 * Returns `subject` when `actor` may see it (admin, public, internal when signed in, a member, or
 * a group marked `readable` because a project inside it is visible); 404 `<resource> Not Found`
 * otherwise, exactly as for a missing one.
 */
export function visibleOr404<T extends { visibility: Visibility; readable?: boolean }>(subject: T | null, level: (s: T) => number, actor: Actor | null, resource: string): T {
  if (!subject || !canRead({ visibility: subject.visibility, access_level: level(subject), readable: subject.readable }, actor)) throw new NotFoundError(resource);
  return subject;
}
