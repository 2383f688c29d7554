import { Actor, canRead, GroupScope, IdentityClient, ProjectScope } from '@anvil/auth';
import { TtlCache } from './cache';
import type { CompiledRoute } from './matcher';
import { refuse, refusals } from './refusals';

/** What resolving a route's `:id` adds to the request. */
export interface Resolution {
  project?: ProjectScope;
  group?: GroupScope;
}

const NOTHING: Resolution = Object.freeze({}) as Resolution;
const CONAN_PREFIX = ['packages', 'conan'];

/** `%2F`-encoded refs decode to full paths; malformed encodings are not found. */
function decodeRef(seg: string): string | null {
  if (!seg.includes('%')) return seg;
  try {
    return decodeURIComponent(seg);
  } catch {
    return null;
  }
}

/**
 * The project named by an instance-level Conan path (`/packages/conan/v1/conans/:name/:version/
 * :username/:channel/...` or `.../files/...`): the package username with `+` → `/`, or null.
 */
export function conanProjectPath(segs: string[]): string | null {
  if (segs[0] !== CONAN_PREFIX[0] || segs[1] !== CONAN_PREFIX[1]) return null;
  if (segs[3] !== 'conans' && segs[3] !== 'files') return null;
  const username = segs.length >= 8 ? decodeRef(segs[6]) : null;
  return username && username.includes('+') ? username.replace(/\+/g, '/') : null;
}

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
      case 'project': {
        const ref = decodeRef(segs[route.idIndex]);
        const project = ref ? await this.project(ref, user) : null;
        if (!project || !canRead(project, user)) refuse(refusals.resourceNotFound('Project'));
        segs[route.idIndex] = String(project.id);
        return { project };
      }
      case 'group': {
        const ref = decodeRef(segs[route.idIndex]);
        const group = ref ? await this.group(ref, user) : null;
        if (!group || !canRead(group, user)) refuse(refusals.resourceNotFound('Group'));
        segs[route.idIndex] = String(group.id);
        return { group };
      }
      case 'conan-user': {
        const path = conanProjectPath(segs);
        const project = path ? await this.project(path, user) : null;
        return project && canRead(project, user) ? { project } : NOTHING;
      }
    }
  }
}
