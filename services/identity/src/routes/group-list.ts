import type { Request, Response } from 'express';
import { prepared } from '@anvil/db';
import { ctx, keysetPaginate, MethodNotAllowedError, p, Page, pageRequest, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toGroupEntity } from '../entities/group';
import { toGroup } from '../groups/group-store';
import { GroupsFinder, ParentFilter } from '../groups/groups-finder';
import type { NamespaceRow } from '../namespaces/namespace';

const listShape = {
  all_available: p.boolean(),
  search: p.string(),
  owned: p.boolean(),
  min_access_level: p.integer().where((n) => [5, 10, 15, 20, 30, 40, 50].includes(n)),
  top_level_only: p.boolean(),
  visibility: p.enum(['private', 'internal', 'public'] as const),
  skip_groups: p.array(p.integer()),
  order_by: p.enum(['name', 'path', 'id', 'similarity'] as const),
  sort: p.enum(['asc', 'desc'] as const),
  statistics: p.boolean(),
  with_custom_attributes: p.boolean(),
  pagination: p.enum(['offset', 'keyset'] as const),
};
const listParams = params(listShape);

const KEYSET_UNAVAILABLE = 'Keyset pagination is not yet available for this type of request';

/** GitLab's default plan limit on offset pages of keyset-enforced types (groups among them). */
export const OFFSET_PAGINATION_LIMIT = 50000;
const OFFSET_EXCEEDED = `Offset pagination has a maximum allowed offset of ${OFFSET_PAGINATION_LIMIT} for requests that return objects of type Group. Remaining records can be retrieved using keyset pagination.`;

/**
 * Answers a group list (`GET /groups`, subgroups, descendant groups) with GitLab's list params.
 * Anonymous callers may page by keyset (`pagination=keyset`, ordered by name ascending: the one
 * order GitLab's group cursor supports; anything else is 405), and their offset pages stop at
 * GitLab's offset limit (405 beyond). `statistics` only for administrators.
 */
export async function listGroups(ictx: IdentityContext, req: Request, res: Response, parent?: ParentFilter): Promise<void> {
  const c = ctx(req);
  const input = listParams.parse(req);
  const query = (await new GroupsFinder(ictx.db, c.user, input, parent).load()).execute();
  let page: Page<NamespaceRow>;
  if (!c.user && input.pagination === 'keyset') {
    if ((input.order_by ?? 'name') !== 'name' || (input.sort ?? 'asc') !== 'asc') throw new MethodNotAllowedError(KEYSET_UNAVAILABLE);
    const columns = [{ column: 'namespaces.name', key: 'name' }, { column: 'namespaces.id', key: 'id' }];
    page = await keysetPaginate<NamespaceRow & Record<string, unknown>>(req, query.clearOrder(), columns, 'asc');
  } else {
    const { page: n, perPage } = pageRequest(req);
    if (!c.user && n * perPage > OFFSET_PAGINATION_LIMIT) throw new MethodNotAllowedError(OFFSET_EXCEEDED);
    // a search sorts its (trigram-indexed) matches, so the page counts them as it reads them
    page = await paginate<NamespaceRow>(req, query, { prepare: (q) => prepared(q, 'identity'), windowCount: !!input.search });
  }
  const statistics = !!input.statistics && !!c.user?.admin;
  res.set(page.headers);
  res.json(page.items.map((r) => toGroupEntity(toGroup(r), c.base, { statistics })));
}
