import type { Router } from 'express';
import { ctx, p, params, UnauthorizedError } from '@anvil/http';
import { projectContext } from '../access/project-context';
import { findReadableIssue } from '../issues/issue-access';
import { setSubscription } from '../subscriptions/subscription-service';
import type { RouteDeps } from './deps';
import { presentIssue } from './present';

const iidParam = params({ issue_iid: p.integer().required() });

/** GitLab's issue subscriptions: 201 with the issue on change, 304 (empty) when nothing changes. */
export function mountSubscriptions(router: Router, { db }: RouteDeps): void {
  for (const [action, subscribed] of [['subscribe', true], ['unsubscribe', false]] as const) {
    // POST /projects/:id/issues/:issue_iid/subscribe, POST /projects/:id/issues/:issue_iid/unsubscribe
    router.post(`/projects/:id/issues/:issue_iid/${action}`, async (req, res) => {
      const c = ctx(req);
      if (!c.user) throw new UnauthorizedError();
      const { issue_iid } = iidParam.parse(req);
      const pc = await projectContext(db, c, true);
      const issue = await findReadableIssue(db, pc, issue_iid);
      await setSubscription(db, issue, c.user.id, subscribed);
      res.status(201).json(await presentIssue(db, pc, issue));
    });
  }
}
