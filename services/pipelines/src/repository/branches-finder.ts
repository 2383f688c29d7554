/**
 * GitLab's BranchesFinder / GitRefsFinder for one project: `search` (case-insensitive substring;
 * `^term` prefix, `term$` suffix, `*` wildcard; an exact match first), `regex` (applied to the name,
 * case-sensitively, by Postgres' regular-expression engine), then `sort`. Each step leaves the query
 * unchanged when its parameter is absent.
 */
import type { Knex } from 'knex';

/** The sorts the Branches API accepts. */
export const BRANCH_SORTS = ['name_asc', 'updated_asc', 'updated_desc'] as const;

/** What a branch list is filtered and ordered by. */
export interface BranchFilters {
  search?: string;
  regex?: string;
  sort?: (typeof BRANCH_SORTS)[number];
  /** Keyset: the branch name to start after (`page_token`, name order without search only). */
  pageToken?: string;
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The ILIKE pattern of a search term, and whether it is plain (no `^`, `$`, `*`). */
export function searchPattern(search: string): { pattern: string; plain: boolean } {
  const prefix = search.startsWith('^');
  const suffix = search.endsWith('$') && search.length > (prefix ? 1 : 0);
  const core = search.slice(prefix ? 1 : 0, suffix ? -1 : undefined);
  const body = core.split('*').map(likeEscape).join('%');
  const plain = !prefix && !suffix && !core.includes('*');
  return { pattern: `${prefix ? '' : '%'}${body}${suffix ? '' : '%'}`, plain };
}

/** Branch rows with their head commit's committed date, for one project. */
export class BranchesFinder {
  constructor(
    private readonly db: Knex,
    private readonly projectId: number,
    private readonly f: BranchFilters,
  ) {}

  /** The ordered query (columns of repository_branches plus `committed_at`). */
  execute(): Knex.QueryBuilder {
    const q = this.db('repository_branches as b')
      .join('repository_commits as c', function on() {
        this.on('c.project_id', 'b.project_id').andOn('c.sha', 'b.commit_sha');
      })
      .where('b.project_id', this.projectId)
      .select('b.*', 'c.committed_at');
    this.bySearch(q);
    this.byRegex(q);
    this.byPageToken(q);
    return this.sorted(q);
  }

  private bySearch(q: Knex.QueryBuilder): void {
    if (!this.f.search) return;
    q.whereRaw("b.name ILIKE ? ESCAPE '\\'", [searchPattern(this.f.search).pattern]);
  }

  private byRegex(q: Knex.QueryBuilder): void {
    if (!this.f.regex) return;
    q.whereRaw('b.name ~ ?', [this.f.regex]);
  }

  private byPageToken(q: Knex.QueryBuilder): void {
    if (this.f.pageToken === undefined || this.f.search || (this.f.sort && this.f.sort !== 'name_asc')) return;
    q.whereRaw('b.name COLLATE "C" > ?', [this.f.pageToken]);
  }

  private sorted(q: Knex.QueryBuilder): Knex.QueryBuilder {
    if (this.f.search && searchPattern(this.f.search).plain) q.orderByRaw('lower(b.name) = lower(?) DESC', [this.f.search]);
    if (this.f.sort === 'updated_asc') q.orderBy('c.committed_at', 'asc');
    if (this.f.sort === 'updated_desc') q.orderBy('c.committed_at', 'desc');
    return q.orderByRaw('b.name COLLATE "C"');
  }
}
