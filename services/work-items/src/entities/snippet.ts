import type { UserRow } from '../read-model/store';
import type { Snippet } from '../snippets/snippet-store';
import { timestamps } from './timestamps';
import { toUserBasic } from './user';

/** The branch a snippet's files are read from in their `raw_url`s (GitLab's default branch name). */
export const SNIPPET_REF = 'main';

/** What a snippet is shown with: its file paths (in order), its author, and where its project lives. */
export interface SnippetView {
  snippet: Snippet;
  filePaths: string[];
  author: UserRow | undefined;
}

/** The public URLs a snippet's JSON needs: the instance base and the project's full path. */
export interface SnippetUrlOptions {
  base: string;
  projectPath: string;
}

/** The snippet's web page (`Gitlab::UrlBuilder` for a project snippet). */
export function snippetWebUrl(s: Snippet, o: SnippetUrlOptions): string {
  return `${o.base}/${o.projectPath}/-/snippets/${s.id}`;
}

/**
 * GitLab's `ProjectSnippet` entity (`BasicSnippet` + `Snippet`). No git repository backs these
 * snippets, so `ssh_url_to_repo`/`http_url_to_repo` are left out, as GitLab does without one.
 */
export function toProjectSnippet(v: SnippetView, o: SnippetUrlOptions): Record<string, unknown> {
  const { snippet: s } = v;
  const web = snippetWebUrl(s, o);
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility,
    author: toUserBasic(v.author),
    ...timestamps(s),
    project_id: s.projectId,
    web_url: web,
    raw_url: `${web}/raw`,
    file_name: v.filePaths[0] ?? s.fileName,
    files: v.filePaths.map((path) => ({ path, raw_url: `${web}/raw/${SNIPPET_REF}/${path}` })),
    imported: false,
    imported_from: 'none',
  };
}

/**
 * GitLab's `UserAgentDetail` entity of a snippet, or null when none was recorded. Anvil checks
 * nothing for spam, so `akismet_submitted` is always false.
 */
export function toUserAgentDetail(s: Snippet): Record<string, unknown> | null {
  if (!s.userAgent || !s.ipAddress) return null;
  return { user_agent: s.userAgent, ip_address: s.ipAddress, akismet_submitted: false };
}
