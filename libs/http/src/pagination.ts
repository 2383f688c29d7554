import type { Request } from 'express';
import type { Knex } from 'knex';
import { MethodNotAllowedError } from './errors';
import { p, params } from './params';

/** GitLab stops counting past this many rows and then omits X-Total, X-Total-Pages and rel="last". */
export const COUNT_LIMIT = 10_000;
/** `per_page` when the request gives none. */
export const DEFAULT_PER_PAGE = 20;
/** A larger `per_page` is served as this many, as GitLab does. */
export const MAX_PER_PAGE = 100;

const pageSchema = params({
  page: p.integer().default(1).where((n) => n >= 1),
  per_page: p.integer().default(DEFAULT_PER_PAGE).where((n) => n >= 1),
});

/** The page a request asks for: 1-based `page`, capped `perPage`, and the row offset they give. */
export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

/** `page` and `per_page` (default 20, capped at 100); below 1 → `400 page does not have a valid value`. */
export function pageRequest(req: Request): PageRequest {
  const { page, per_page } = pageSchema.parseObject(req.query as Record<string, unknown>);
  const perPage = Math.min(per_page, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** Credentials a query may carry (GitLab filters them from logs); never repeated in links. */
export const CREDENTIAL_PARAMS = ['private_token', 'access_token', 'job_token'] as const;

/** The public URL of this request with `overrides` applied to its query, without its credentials. */
export function requestUrl(req: Request, overrides: Record<string, string | number | null>): string {
  const base = (res_base(req) ?? '').replace(/\/$/, '');
  const [path, query = ''] = req.originalUrl.split('?', 2);
  const sp = new URLSearchParams(query);
  for (const k of CREDENTIAL_PARAMS) sp.delete(k);
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) sp.delete(k);
    else sp.set(k, String(v));
  }
  const qs = sp.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

function res_base(req: Request): string | undefined {
  const ctx = (req as Request & { anvil?: { base?: string } }).anvil;
  if (ctx?.base) return ctx.base;
  return `${req.protocol}://${req.get('host')}`;
}

/** What offset headers are computed from. */
export interface OffsetPage {
  page: number;
  perPage: number;
  /** Null when above COUNT_LIMIT (not counted). */
  total: number | null;
  hasNext: boolean;
}

/**
 * GitLab's pagination headers of one page, in the order GitLab sends them; a handler applies them
 * with `res.set(headers)`. A header absent from the object is not sent.
 */
export type PageHeaders = Record<string, string>;

/** One page of items and the headers that describe it. */
export interface Page<T> {
  items: T[];
  headers: PageHeaders;
}

/** X-Per-Page, X-Page, X-Next-Page, X-Prev-Page, X-Total, X-Total-Pages and Link as GitLab sets them. */
export function offsetHeaders(req: Request, pg: OffsetPage): PageHeaders {
  const { page, perPage, total, hasNext } = pg;
  const totalPages = total === null ? null : Math.max(1, Math.ceil(total / perPage));
  const headers: PageHeaders = {
    'X-Per-Page': String(perPage),
    'X-Page': String(page),
    'X-Next-Page': hasNext ? String(page + 1) : '',
    'X-Prev-Page': page > 1 ? String(page - 1) : '',
  };
  if (total !== null) {
    headers['X-Total'] = String(total);
    headers['X-Total-Pages'] = String(totalPages);
  }
  const link = (n: number, rel: string) => `<${requestUrl(req, { page: n, per_page: perPage })}>; rel="${rel}"`;
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (hasNext) links.push(link(page + 1, 'next'));
  links.push(link(1, 'first'));
  if (totalPages !== null) links.push(link(totalPages, 'last'));
  headers.Link = links.join(', ');
  return headers;
}

/** How `paginate` counts and runs. */
export interface PaginateOptions {
  /** Counts these rows instead of the page query's (the same rows, cheaper: without joins the page needs). */
  countQuery?: Knex.QueryBuilder;
  /**
   * Applied to the final page and count queries just before they run: a service passes its
   * prepared-statement marker here, so both are planned once per connection. Only for lists whose
   * SQL text does not vary with the data (bound values, arrays as one binding, no IN lists).
   */
  prepare?: (q: Knex.QueryBuilder) => Knex.QueryBuilder;
  /**
   * Count in the page query (`count(*) OVER ()`, every matching row) instead of a second query
   * stopping at COUNT_LIMIT + 1 rows: for queries whose page reads and sorts every match anyway
   * (searches), where a second query would read them all again. The total is exact; above
   * COUNT_LIMIT it is omitted as usual.
   */
  windowCount?: boolean;
}

/** The column `windowCount` adds to the page's rows (removed before they are returned). */
const WINDOW_TOTAL = '__anvil_total';

/**
 * Offset-paginates a knex query: counts up to COUNT_LIMIT + 1 rows (never a full count of a huge
 * table), fetches one page plus one row to know whether a next page exists. The query must already
 * be ordered.
 */
export async function paginate<T>(req: Request, query: Knex.QueryBuilder, opts: PaginateOptions = {}): Promise<Page<T>> {
  const { page, perPage, offset } = pageRequest(req);
  const countSource = (opts.countQuery ?? query).clone().clearOrder().clearSelect().select(query.client.raw('1')).limit(COUNT_LIMIT + 1);
  const knex = query.client;
  const last = opts.prepare ?? ((q: Knex.QueryBuilder) => q);
  const countRows = async () => Number(((await last(knex.queryBuilder().count({ n: '*' }).from(countSource.as('c')).first())) as { n: string | number } | undefined)?.n ?? 0);
  let rows: Record<string, unknown>[];
  let counted: number;
  if (opts.windowCount) {
    rows = (await last(query.clone().select(knex.raw(`count(*) OVER () AS ${WINDOW_TOTAL}`)).limit(perPage + 1).offset(offset))) as Record<string, unknown>[];
    // past the last row the page has no row to carry the total
    counted = rows.length ? Number(rows[0][WINDOW_TOTAL]) : offset > 0 ? await countRows() : 0;
    for (const r of rows) delete r[WINDOW_TOTAL];
  } else {
    [rows, counted] = await Promise.all([last(query.clone().limit(perPage + 1).offset(offset)) as Promise<Record<string, unknown>[]>, countRows()]);
  }
  const total = counted > COUNT_LIMIT ? null : counted;
  const hasNext = rows.length > perPage;
  return { items: (rows as T[]).slice(0, perPage), headers: offsetHeaders(req, { page, perPage, total, hasNext }) };
}

/**
 * Paginates an in-memory array (for small lists): the same headers as `paginate`, except that an
 * array of COUNT_LIMIT items or more goes without totals (GitLab's check on paginated arrays is `>=`).
 */
export function paginateArray<T>(req: Request, items: T[]): Page<T> {
  const { page, perPage, offset } = pageRequest(req);
  const total = items.length >= COUNT_LIMIT ? null : items.length;
  return { items: items.slice(offset, offset + perPage), headers: offsetHeaders(req, { page, perPage, total, hasNext: items.length > offset + perPage }) };
}

/** One ordering column of a keyset page. */
export interface KeysetColumn {
  /** The column (as selected and as in the WHERE). */
  column: string;
  /** The row property holding the value (defaults to the column name). */
  key?: string;
}

/**
 * Keyset (cursor) pagination, for `pagination=keyset`: orders by `columns` in `direction`, reads the
 * opaque `cursor` param; its headers are X-Per-Page and, only when a next page exists,
 * `Link: <…cursor=…>; rel="next"`. No X-Total, no X-Page. The last column must be unique (id).
 */
export async function keysetPaginate<T extends Record<string, unknown>>(
  req: Request,
  query: Knex.QueryBuilder,
  columns: KeysetColumn[],
  direction: 'asc' | 'desc',
): Promise<Page<T>> {
  const { perPage } = pageRequest(req);
  const raw = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
  const q = query.clone();
  if (raw) {
    let values: unknown[];
    try {
      values = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
      if (!Array.isArray(values) || values.length !== columns.length) throw new Error('bad');
    } catch {
      throw new MethodNotAllowedError('Keyset pagination is not yet available for this type of request');
    }
    const cols = columns.map((c) => q.client.ref(c.column));
    const op = direction === 'asc' ? '>' : '<';
    q.whereRaw(`(${cols.map(() => '??').join(', ')}) ${op} (${values.map(() => '?').join(', ')})`, [...columns.map((c) => c.column), ...(values as string[])]);
  }
  for (const c of columns) q.orderBy(c.column, direction);
  const rows = (await q.limit(perPage + 1)) as T[];
  const page = rows.slice(0, perPage);
  const headers: PageHeaders = { 'X-Per-Page': String(perPage) };
  if (rows.length > perPage) {
    const last = page[page.length - 1];
    const cursor = Buffer.from(JSON.stringify(columns.map((c) => {
      const v = last[c.key ?? c.column];
      return v instanceof Date ? v.toISOString() : v;
    }))).toString('base64url');
    headers.Link = `<${requestUrl(req, { cursor, per_page: perPage, page: null })}>; rel="next"`;
  }
  return { items: page, headers };
}
