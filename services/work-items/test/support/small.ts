import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { AccessLevel, GroupInfo, ProjectInfo, startWorkItems, World } from './world';

/** A small fixture: a public project in a group with a reporter, a guest, an outsider and an admin. */
export interface Small {
  svc: TestService;
  world: World;
  group: GroupInfo;
  project: ProjectInfo;
  reporter: Actor;
  guest: Actor;
  outsider: Actor;
  admin: Actor;
  /** Creates an issue as `who` (default the reporter) and returns its JSON. */
  issue(body?: Record<string, unknown>, who?: Actor): Promise<{ id: number; iid: number; [k: string]: unknown }>;
  /** A client on the project for `who`. */
  on(who: Actor | null): ReturnType<World['onProject']>;
  /** `/api/v4/projects/:id/issues/:iid` + suffix. */
  path(iid: number, suffix?: string): string;
}

/** Starts the service and builds the small fixture. */
export async function small(visibility: 'public' | 'private' = 'public'): Promise<Small> {
  const svc = await startWorkItems();
  const world = new World(svc);
  const [reporter, guest, outsider] = await Promise.all(['reporter', 'guest', 'outsider'].map((u) => world.user(u)));
  const admin = await world.user('admin', { admin: true });
  const group = await world.group('team');
  const project = await world.project('proj', { group, visibility });
  await world.member(project, reporter, AccessLevel.REPORTER);
  await world.member(project, guest, AccessLevel.GUEST);
  const on = (who: Actor | null) => world.onProject(project, who);
  return {
    svc, world, group, project, reporter, guest, outsider, admin, on,
    path: (iid, suffix = '') => `/api/v4/projects/${project.id}/issues/${iid}${suffix}`,
    issue: async (body = {}, who = reporter) => (await on(who).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'An issue', ...body }).expect(201)).body,
  };
}
