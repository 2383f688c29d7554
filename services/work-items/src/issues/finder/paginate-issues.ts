import type { Request } from 'express';
import type { Knex } from 'knex';
import { COUNT_LIMIT, offsetHeaders, Page, pageRequest } from '@anvil/http';
import { queryPrepared } from '@anvil/db';
import { Issue, issueFromRow, IssueRow } from '../issue-row';
import type { IssueFinder } from './issue-finder';

/**
 * Offset pagination of a finder with GitLab's headers: the names the filters use are looked up
 * first (`resolveNames`); the page is one statement (prepared, unless the finder plans per
 * request); the total (counted up to 10,001 rows, as GitLab does) is skipped when the page itself
 * shows it (a short page) and otherwise is one more statement: the sum of a few counters when one
 * label or assignee filters the list (`IssueFinder.countFromCounters`, exact at any size), else a
 * count, prepared when it reads the filter keys (`IssueFinder.countable`), unless a lower bound
 * from the counters already exceeds 10,000 (`IssueFinder.countLowerBound`: `not[labels]` lists).
 */
export async function paginateIssues(req: Request, db: Knex, finder: IssueFinder): Promise<Page<Issue>> {
  const { page, perPage, offset } = pageRequest(req);
  await Promise.all([finder.resolveNames(), finder.resolveProjects()]);
  const run = <T>(q: Knex.QueryBuilder): Promise<T[]> => (finder.plansPerRequest ? q : queryPrepared<T>(db, q));
  const rows = await run<IssueRow>(finder.execute().limit(perPage + 1).offset(offset));
  const hasNext = rows.length > perPage;
  let total: number;
  if (!hasNext && (rows.length > 0 || page === 1)) total = offset + rows.length;
  else {
    const prepared = <T>(q: Knex.QueryBuilder) => queryPrepared<T>(db, q);
    const fromCounters = await finder.countFromCounters(prepared);
    if (fromCounters !== null) return pageOf(req, rows, perPage, page, fromCounters, hasNext);
    const atLeast = await finder.countLowerBound(prepared, COUNT_LIMIT);
    if (atLeast !== null && atLeast > COUNT_LIMIT) return pageOf(req, rows, perPage, page, atLeast, hasNext);
    const counted = finder.countable();
    const q = db.queryBuilder().count({ n: '*' }).from(counted.query.select(db.raw('1')).limit(COUNT_LIMIT + 1).as('c'));
    total = Number((await (counted.keyed ? queryPrepared<{ n: string }>(db, q) : run<{ n: string }>(q)))[0].n);
  }
  return pageOf(req, rows, perPage, page, total, hasNext);
}

function pageOf(req: Request, rows: IssueRow[], perPage: number, page: number, total: number, hasNext: boolean): Page<Issue> {
  return { items: rows.slice(0, perPage).map(issueFromRow), headers: offsetHeaders(req, { page, perPage, total: total > COUNT_LIMIT ? null : total, hasNext }) };
}
