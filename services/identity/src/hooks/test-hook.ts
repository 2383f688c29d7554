import { randomUUID } from 'node:crypto';
import { HttpError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import type { Project } from '../projects/project';
import { projectStore } from '../projects/project-store';
import type { User } from '../users/user';
import { executeDelivery } from './execute';
import type { Hook } from './hook';
import { projectHookAttrs } from './payloads';

/** GitLab's `ProjectHook.triggers`: the `:trigger` values the test route accepts, with their hook scope. */
export const TEST_TRIGGERS = {
  push_events: 'push_hooks',
  tag_push_events: 'tag_push_hooks',
  issues_events: 'issue_hooks',
  confidential_issues_events: 'confidential_issue_hooks',
  note_events: 'note_hooks',
  confidential_note_events: 'confidential_note_hooks',
  merge_requests_events: 'merge_request_hooks',
  job_events: 'job_hooks',
  pipeline_events: 'pipeline_hooks',
  wiki_page_events: 'wiki_page_hooks',
  deployment_events: 'deployment_hooks',
  feature_flag_events: 'feature_flag_hooks',
  releases_events: 'release_hooks',
  emoji_events: 'emoji_hooks',
  resource_access_token_events: 'resource_access_token_hooks',
  vulnerability_events: 'vulnerability_hooks',
} as const;

/** A value of `:trigger`. */
export type TestTrigger = keyof typeof TEST_TRIGGERS;

/** Triggers whose sample GitLab refuses because Anvil has none of the objects it is built from. */
const NO_DATA: Partial<Record<TestTrigger, string>> = {
  wiki_page_events: 'Ensure the wiki is enabled and has pages.',
  releases_events: 'Ensure the project has releases.',
};

/** `Gitlab::DataBuilder::Push.build` for the project's default branch (or a tag), without commits: Anvil holds no Git repository. */
function pushSample(project: Project, user: User, publicUrl: string, tag: boolean): Record<string, unknown> {
  const attrs = projectHookAttrs(project, publicUrl);
  const kind = tag ? 'tag_push' : 'push';
  return {
    object_kind: kind, event_name: kind, before: null, after: null, ref: tag ? 'refs/tags/v1.0.0' : `refs/heads/${project.defaultBranch ?? 'main'}`,
    checkout_sha: null, message: null, user_id: user.id, user_name: user.name, user_username: user.username, user_email: user.profile.publicEmail || '',
    user_avatar: null, project_id: project.id, project: attrs, commits: [], total_commits_count: 0, push_options: {},
    repository: { name: attrs.name, url: attrs.url, description: attrs.description, homepage: attrs.homepage, git_http_url: attrs.git_http_url, git_ssh_url: attrs.git_ssh_url, visibility_level: attrs.visibility_level },
  };
}

/** The sample a trigger sends, or the refusal: GitLab's no-data message, or `Testing not available for this hook`. */
function sampleData(trigger: TestTrigger, project: Project, user: User, publicUrl: string): Record<string, unknown> {
  if (trigger === 'push_events' || trigger === 'tag_push_events') return pushSample(project, user, publicUrl, trigger === 'tag_push_events');
  const noData = NO_DATA[trigger];
  throw new HttpError(422, { message: noData ?? 'Testing not available for this hook' });
}

/**
 * Runs a hook once with a sample of `trigger` (GitLab's `TestHooks::GroupService`), at once and
 * even when the hook is disabled; a 2xx answer re-enables it. The sample is built on the group's
 * first project (Anvil holds no Git repositories, so any project stands for GitLab's first
 * non-empty one). Success is a 2xx answer; anything else is 422 with the receiver's body or the error.
 * Issue, note and pipeline samples live in other services and are not available here.
 */
export async function testHook(ictx: IdentityContext, hook: Hook, groupId: number, trigger: TestTrigger, user: User): Promise<void> {
  const project = await projectStore.firstIn(ictx.db, groupId);
  if (!project) throw new HttpError(422, { message: 'Ensure the group has a project with commits.' });
  const payload = sampleData(trigger, project, user, ictx.publicUrl);
  const delivery = { hookId: hook.id, trigger: TEST_TRIGGERS[trigger], payload, idempotencyKey: randomUUID(), eventUuid: randomUUID() };
  const attempt = await executeDelivery(ictx.db, delivery, ictx.publicUrl, undefined, { force: true });
  const status = Number(attempt.status);
  if (!(status >= 200 && status <= 299)) throw new HttpError(422, { message: attempt.message ?? attempt.status });
}
