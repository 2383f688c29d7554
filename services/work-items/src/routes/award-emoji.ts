import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { checkUnmodifiedSince, ctx, p, paginate, params, RecordNotFoundError } from '@anvil/http';
import { projectContext } from '../access/project-context';
import { addAward, assertReadable, assertRemovable, findAward, removeAward } from '../award-emoji/award-service';
import { Award, awardFromRow, AwardRow, awardsOf } from '../award-emoji/award-store';
import { Awardable, AWARDABLE_KINDS, AwardableKind, findAwardable } from '../award-emoji/awardables';
import { toAwardEmoji } from '../entities/award-emoji';
import { usersByIds } from '../read-model/store';
import type { RouteDeps } from './deps';

const awardParam = params({ award_id: p.integer().required() });
const nameParam = params({ name: p.string().required() });

/** Serialises awards with their users. */
async function present(db: Knex, awards: Award[]): Promise<Record<string, unknown>[]> {
  const users = await usersByIds(db, awards.map((a) => a.userId));
  return awards.map((a) => toAwardEmoji(a, users.get(a.userId)));
}

/** `:note_id` is looked up as given (`notes.find`): anything but digits names no note. */
function noteIdOf(req: Request): number {
  const raw = String(req.params.note_id);
  if (!/^\d+$/.test(raw)) throw new RecordNotFoundError();
  return Number(raw);
}

/** The awardable a request's URL names, for one base (`kind`), on the awardable itself or on one of its notes. */
function awardableLoader(db: Knex, kind: AwardableKind, onNote: boolean) {
  const idParam = params({ [kind.param]: p.integer().required() });
  return async (req: Request, forWrite = false): Promise<Awardable> => {
    const id = (idParam.parse(req) as Record<string, number>)[kind.param];
    const pc = await projectContext(db, ctx(req), forWrite);
    return findAwardable(db, pc, kind, id, onNote ? noteIdOf(req) : undefined);
  };
}

function mountBase(router: Router, db: Knex, kind: AwardableKind, onNote: boolean): void {
  const path = `/projects/:id/${kind.segment}/:${kind.param}${onNote ? '/notes/:note_id' : ''}/award_emoji`;
  const load = awardableLoader(db, kind, onNote);

  // GET /projects/:id/{issues/:issue_iid|merge_requests/:merge_request_iid|snippets/:snippet_id}[/notes/:note_id]/award_emoji
  router.get(path, async (req, res) => {
    const awardable = await load(req);
    assertReadable(awardable);
    const page = await paginate<AwardRow>(req, awardsOf(db, awardable));
    res.set(page.headers).json(await present(db, page.items.map(awardFromRow)));
  });

  // GET /projects/:id/{issues/:issue_iid|merge_requests/:merge_request_iid|snippets/:snippet_id}[/notes/:note_id]/award_emoji/:award_id
  router.get(`${path}/:award_id`, async (req, res) => {
    const { award_id } = awardParam.parse(req);
    const awardable = await load(req);
    assertReadable(awardable);
    res.json((await present(db, [await findAward(db, awardable, award_id)]))[0]);
  });

  // POST /projects/:id/{issues/:issue_iid|merge_requests/:merge_request_iid|snippets/:snippet_id}[/notes/:note_id]/award_emoji
  router.post(path, async (req, res) => {
    const { name } = nameParam.parse(req);
    const awardable = await load(req, true);
    const award = await addAward(db, awardable, ctx(req).user, name);
    res.status(201).json((await present(db, [award]))[0]);
  });

  // DELETE /projects/:id/{issues/:issue_iid|merge_requests/:merge_request_iid|snippets/:snippet_id}[/notes/:note_id]/award_emoji/:award_id
  router.delete(`${path}/:award_id`, async (req, res) => {
    const { award_id } = awardParam.parse(req);
    const awardable = await load(req);
    const award = await findAward(db, awardable, award_id);
    const actor = ctx(req).user;
    assertRemovable(award, actor);
    checkUnmodifiedSince(req, award.updatedAt);
    await removeAward(db, awardable, award, actor);
    res.status(204).end();
  });
}

/** GitLab's award emoji API on issues, merge requests and project snippets, and on their notes. */
export function mountAwardEmoji(router: Router, { db }: RouteDeps): void {
  for (const kind of AWARDABLE_KINDS) {
    mountBase(router, db, kind, false);
    mountBase(router, db, kind, true);
  }
}
