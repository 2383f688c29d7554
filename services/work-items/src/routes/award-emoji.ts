import type { Router } from 'express';
import { ctx, p, paginate, params, UnauthorizedError, ValidationError, HttpError } from '@anvil/http';
import { projectContext } from '../access/project-context';
import { awardFromRow, AwardRow, awardIssue, issueAwards, validEmojiName } from '../award-emoji/award-store';
import { toAwardEmoji } from '../entities/award-emoji';
import { findReadableIssue } from '../issues/issue-access';
import { usersByIds } from '../read-model/store';
import type { RouteDeps } from './deps';

const listParams = params({ issue_iid: p.integer().required() });
const createParams = params({ issue_iid: p.integer().required(), name: p.string().required() });

/** Thin award emoji on issues (list and award); the full emoji API comes later. */
export function mountAwardEmoji(router: Router, { db }: RouteDeps): void {
  // GET /projects/:id/issues/:issue_iid/award_emoji
  router.get('/projects/:id/issues/:issue_iid/award_emoji', async (req, res) => {
    const { issue_iid } = listParams.parse(req);
    const pc = await projectContext(db, ctx(req));
    const issue = await findReadableIssue(db, pc, issue_iid);
    const page = await paginate<AwardRow>(req, issueAwards(db, issue.id));
    const awards = page.items.map(awardFromRow);
    const users = await usersByIds(db, awards.map((a) => a.userId));
    res.set(page.headers).json(awards.map((a) => toAwardEmoji(a, users.get(a.userId))));
  });

  // POST /projects/:id/issues/:issue_iid/award_emoji
  router.post('/projects/:id/issues/:issue_iid/award_emoji', async (req, res) => {
    const c = ctx(req);
    if (!c.user) throw new UnauthorizedError();
    const { issue_iid, name } = createParams.parse(req);
    const pc = await projectContext(db, c, true);
    const issue = await findReadableIssue(db, pc, issue_iid).catch(() => {
      throw new HttpError(404, { message: '404 Award Emoji Not Found' });
    });
    const emoji = name.replace(/^:|:$/g, '');
    if (!validEmojiName(emoji)) throw new ValidationError({ name: ['is not a valid emoji name'] });
    const award = await awardIssue(db, c.user.id, issue, emoji);
    res.status(201).json(toAwardEmoji(award, (await usersByIds(db, [c.user.id])).get(c.user.id)));
  });
}
