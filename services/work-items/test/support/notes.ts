import type { Actor } from '@anvil/auth';
import { startService, TEST_BASE_URL, TestService } from '@anvil/testing';
import { workItemsService } from '../../src';
import { AccessLevel, GroupInfo, ProjectInfo, World } from './world';

/** The noteable kinds the notes tests run against. */
export type NotesTargetName = 'issues' | 'merge_requests' | 'epics';

/** A noteable made for a test: its database id, the id its routes use, and its iid (null for epics). */
export interface Made {
  id: number;
  ref: number;
  iid: number | null;
}

/**
 * One notes-test world: a public group with a public project, an Owner, a Maintainer, a Reporter
 * and a Guest (members of the project, or of the group for epics), an outsider and an admin, and
 * a factory for the noteable under test.
 */
export interface NotesWorld {
  svc: TestService;
  world: World;
  group: GroupInfo;
  project: ProjectInfo;
  owner: Actor;
  maintainer: Actor;
  reporter: Actor;
  guest: Actor;
  outsider: Actor;
  admin: Actor;
  type: 'Issue' | 'MergeRequest' | 'Epic';
  /** `project_id` of notes: the project, or null for epics. */
  projectId: number | null;
  /** A signed client on the parent (project or group) for `who`. */
  on(who: Actor | null): ReturnType<World['onProject']>;
  /** `/api/v4/…/<noteable>/notes` + suffix. */
  notes(ref: number, suffix?: string): string;
  /** Creates a noteable to comment on. */
  make(): Promise<Made>;
}

/** The UserBasic GitLab embeds as a note's author. */
export function userBasic(u: Actor): Record<string, unknown> {
  return { id: u.id, username: u.username, name: u.name, state: 'active', locked: false, avatar_url: null, web_url: `${TEST_BASE_URL}/${u.username}` };
}

let branch = 0;

function factory(w: Omit<NotesWorld, 'make' | 'notes'>, target: NotesTargetName): NotesWorld['make'] {
  if (target === 'issues') {
    return async () => {
      const b = (await w.on(w.reporter).post(`/api/v4/projects/${w.project.id}/issues`).send({ title: 'An issue' }).expect(201)).body;
      return { id: b.id, ref: b.iid, iid: b.iid };
    };
  }
  if (target === 'merge_requests') {
    return async () => {
      const body = { source_branch: `topic-${++branch}`, target_branch: 'main', title: 'A change' };
      const b = (await w.on(w.maintainer).post(`/api/v4/projects/${w.project.id}/merge_requests`).send(body).expect(201)).body;
      return { id: b.id, ref: b.iid, iid: b.iid };
    };
  }
  return async () => {
    const b = (await w.on(w.reporter).post(`/api/v4/groups/${w.group.id}/epics`).send({ title: 'An epic' }).expect(201)).body;
    return { id: b.id, ref: b.id, iid: null };
  };
}

/** Starts work-items (with `env`) and builds the world for `target`. */
export async function notesWorld(target: NotesTargetName, env: Record<string, string> = {}): Promise<NotesWorld> {
  const svc = await startService(workItemsService, { env });
  const world = new World(svc);
  const [owner, maintainer, reporter, guest, outsider] = await Promise.all(['owner', 'maintainer', 'reporter', 'guest', 'outsider'].map((u) => world.user(u)));
  const admin = await world.user('admin', { admin: true });
  const group = await world.group('team', { visibility: 'public' });
  const project = await world.project('proj', { group, visibility: 'public' });
  const source = target === 'epics' ? group : project;
  for (const [who, level] of [[owner, AccessLevel.OWNER], [maintainer, AccessLevel.MAINTAINER], [reporter, AccessLevel.REPORTER], [guest, AccessLevel.GUEST]] as const) {
    await world.member(source, who, level);
  }
  const on = (who: Actor | null) => (target === 'epics' ? world.onGroup(group, who) : world.onProject(project, who));
  const prefix = target === 'epics' ? `/api/v4/groups/${group.id}/epics` : `/api/v4/projects/${project.id}/${target}`;
  const type = target === 'issues' ? 'Issue' : target === 'merge_requests' ? 'MergeRequest' : 'Epic';
  const base = { svc, world, group, project, owner, maintainer, reporter, guest, outsider, admin, type, projectId: target === 'epics' ? null : project.id, on } as const;
  return { ...base, notes: (ref, suffix = '') => `${prefix}/${ref}/notes${suffix}`, make: factory(base, target) };
}
