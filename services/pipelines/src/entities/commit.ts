/** GitLab's Commit entity (lib/api/entities/commit.rb), keys in GitLab's order. */
import type { CommitRow } from '../repository/repository-store';

/** Where the project lives on the web: `<base>/<namespace>/<project>`. */
export interface ProjectWeb {
  base: string;
  pathWithNamespace: string;
}

/** A commit date as GitLab writes it: milliseconds and the commit's offset (always UTC here). */
export function commitDate(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}

/** Commit#title: the first line, cut at a word before 81 characters with `…` when 100 or longer. */
export function commitTitle(message: string): string {
  if (!message.trim()) return 'No commit message';
  const full = message.split(/[\r\n]/, 1)[0];
  if (full.length < 100) return full;
  const space = full.lastIndexOf(' ', 80);
  return `${full.slice(0, space >= 0 ? space : 80)}…`;
}

const TRAILER = /^([A-Za-z0-9-]+):\s*(.+)$/;

/** The message's Git trailers (its last paragraph, when every line is `Key: value`), once and all values. */
export function commitTrailers(message: string): { trailers: Record<string, string>; extended: Record<string, string[]> } {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const trailers: Record<string, string> = {};
  const extended: Record<string, string[]> = {};
  if (paragraphs.length < 2) return { trailers, extended };
  const lines = paragraphs[paragraphs.length - 1].split('\n');
  if (!lines.every((l) => TRAILER.test(l))) return { trailers, extended };
  for (const line of lines) {
    const [, key, value] = TRAILER.exec(line) as RegExpExecArray;
    trailers[key] = value;
    (extended[key] ??= []).push(value);
  }
  return { trailers, extended };
}

/** The Commit entity of a stored commit. */
export function toCommit(c: CommitRow, web: ProjectWeb) {
  const { trailers, extended } = commitTrailers(c.message);
  return {
    id: c.sha,
    short_id: c.sha.slice(0, 8),
    created_at: commitDate(c.committed_at),
    parent_ids: c.parent_shas,
    title: commitTitle(c.message),
    message: c.message,
    author_name: c.author_name,
    author_email: c.author_email,
    authored_date: commitDate(c.authored_at),
    committer_name: c.committer_name,
    committer_email: c.committer_email,
    committed_date: commitDate(c.committed_at),
    trailers,
    extended_trailers: extended,
    web_url: `${web.base}/${web.pathWithNamespace}/-/commit/${c.sha}`,
  };
}
