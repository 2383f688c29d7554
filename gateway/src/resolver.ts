import { Actor, canRead, GroupScope, IdentityClient, ProjectScope } from '@anvil/auth';
import { TtlCache } from './cache';
import type { CompiledRoute } from './matcher';
import { decodeRef } from './refs';
import { refuse, refusals } from './refusals';

/** What resolving a route's `:id` adds to the request. */
export interface Resolution {
  project?: ProjectScope;
  group?: GroupScope;
}

const NOTHING: Resolution = Object.freeze({}) as Resolution;

/**
 * Resolves `:id` refs (numeric or full path) to scopes with the caller's access level via identity,
 * cached per (ref, user) for a few seconds, and rewrites the path segment to the numeric id.
 */
export class ScopeResolver {
  private readonly projects: TtlCache<ProjectScope | null>;
  private readonly groups: TtlCache<GroupScope | null>;

  constructor(
    private readonly identity: IdentityClient,
    ttlMs: number,
  ) {
    const negative = Math.min(ttlMs, 1000);
    this.projects = new TtlCache<ProjectScope | null>(ttlMs, negative, (v) => !v);
    this.groups = new TtlCache<GroupScope | null>(ttlMs, negative, (v) => !v);
  }

  /** Drops every cached resolution (memberships, visibility or paths changed). */
  clear(): void {
    this.projects.clear();
    this.groups.clear();
  }

  /** A project by ref as `user` sees it (null: missing). */
  project(ref: string, user: Actor | null): Promise<ProjectScope | null> {
    const uid = user?.id ?? null;
    return this.projects.get(`${uid}\0${ref}`, () => this.identity.resolveProject(ref, uid));
  }

  /** A group by ref as `user` sees it (null: missing). */
  group(ref: string, user: Actor | null): Promise<GroupScope | null> {
    const uid = user?.id ?? null;
    return this.groups.get(`${uid}\0${ref}`, () => this.identity.resolveGroup(ref, uid));
  }

  /**
   * Applies the route's `resolve` to `segs` (mutating the `:id` segment to the numeric id) and
   * returns the scope for the context; refuses with GitLab's 404 when the caller may not see it.
   */
  async resolve(route: CompiledRoute, segs: string[], user: Actor | null): Promise<Resolution> {
    switch (route.resolve) {
      case 'none':
        return NOTHING;
      case 'project':
        return { project: await this.readable(route, segs, user, 'Project', (ref) => this.project(ref, user)) };
      case 'group':
        return { group: await this.readable(route, segs, user, 'Group', (ref) => this.group(ref, user)) };
      case 'named-project': {
        const path = route.projectPath?.(segs);
        const project = path ? await this.project(path, user) : null;
        return project && canRead(project, user) ? { project } : NOTHING;
      }
    }
  }

  /** The scope the `:id` segment names, readable by `user` (else GitLab's 404), with the segment rewritten to its id. */
  private async readable<S extends ProjectScope | GroupScope>(route: CompiledRoute, segs: string[], user: Actor | null, what: string, find: (ref: string) => Promise<S | null>): Promise<S> {
    const ref = decodeRef(segs[route.idIndex]);
    const scope = ref ? await find(ref) : null;
    if (!scope || !canRead(scope, user)) refuse(refusals.resourceNotFound(what));
    segs[route.idIndex] = String(scope.id);
    return scope;
  }
}
