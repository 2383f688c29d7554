import type { Actor } from '@anvil/auth';
import { TEST_BASE_URL, TestService } from '@anvil/testing';
import { AccessLevel, ProjectInfo, startWorkItems, World } from './world';

/** A public project with a guest, two reporters, a maintainer, an outsider and an administrator. */
export interface SnippetFixture {
  svc: TestService;
  world: World;
  project: ProjectInfo;
  guest: Actor;
  reporter: Actor;
  otherReporter: Actor;
  maintainer: Actor;
  outsider: Actor;
  admin: Actor;
  /** A client on the project for `who` (null: anonymous). */
  on(who: Actor | null): ReturnType<World['onProject']>;
  /** `/api/v4/projects/:id/snippets` + suffix. */
  path(suffix?: string | number): string;
  /** Creates a snippet as `who` (default the reporter): one file `a.rb` unless `body` says otherwise. */
  snippet(body?: Record<string, unknown>, who?: Actor): Promise<SnippetJson>;
}

/** A snippet as the API returns it. */
export interface SnippetJson {
  id: number;
  web_url: string;
  updated_at: string;
  [k: string]: unknown;
}

/** GitLab's UserBasic of a test user. */
export function userBasic(u: Actor): Record<string, unknown> {
  return { id: u.id, username: u.username, name: u.name, state: 'active', locked: false, avatar_url: null, web_url: `${TEST_BASE_URL}/${u.username}` };
}

/** Starts work-items and builds the snippet fixture. */
export async function snippetFixture(): Promise<SnippetFixture> {
  const svc = await startWorkItems();
  const world = new World(svc);
  const [guest, reporter, otherReporter, maintainer, outsider] = await Promise.all(['guest', 'reporter', 'reporter2', 'maintainer', 'outsider'].map((u) => world.user(u)));
  const admin = await world.user('admin', { admin: true });
  const group = await world.group('team');
  const project = await world.project('proj', { group, visibility: 'public' });
  await world.member(project, guest, AccessLevel.GUEST);
  await world.member(project, reporter, AccessLevel.REPORTER);
  await world.member(project, otherReporter, AccessLevel.REPORTER);
  await world.member(project, maintainer, AccessLevel.MAINTAINER);
  const on = (who: Actor | null) => world.onProject(project, who);
  const path = (suffix: string | number = '') => `/api/v4/projects/${project.id}/snippets${suffix === '' ? '' : `/${suffix}`}`;
  const snippet = async (body: Record<string, unknown> = {}, who: Actor = reporter) => {
    const defaults = body.files ? {} : { file_name: 'a.rb', content: 'puts 1' };
    return (await on(who).post(path()).send({ title: 'A snippet', visibility: 'public', ...defaults, ...body }).expect(201)).body as SnippetJson;
  };
  return { svc, world, project, guest, reporter, otherReporter, maintainer, outsider, admin, on, path, snippet };
}
