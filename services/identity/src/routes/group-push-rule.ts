import type { Request, Router } from 'express';
import type { Actor } from '@anvil/auth';
import { ctx, NotFoundError, p, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toGroupPushRule } from '../entities/group-push-rule';
import type { Group } from '../groups/group-store';
import { Level, requireLevel, requireUser } from '../policy';
import type { PushRuleAttributes } from '../push-rules/push-rule';
import { createPushRule, deletePushRule, updatePushRule } from '../push-rules/push-rule-service';
import { pushRuleStore } from '../push-rules/push-rule-store';
import { defined } from './helpers';
import { loadGroup } from './loaders';

const shape = {
  deny_delete_tag: p.boolean(),
  member_check: p.boolean(),
  prevent_secrets: p.boolean(),
  commit_message_regex: p.string(),
  commit_message_negative_regex: p.string(),
  branch_name_regex: p.string(),
  author_email_regex: p.string(),
  file_name_regex: p.string(),
  max_file_size: p.integer(),
  commit_committer_check: p.boolean(),
  commit_committer_name_check: p.boolean(),
  reject_unsigned_commits: p.boolean(),
  reject_non_dco_commits: p.boolean(),
};
const ruleParams = params(shape, { atLeastOneOf: [Object.keys(shape)] });

/** The group of the request and its caller, once they are known to be an Owner or an administrator. */
async function ownedGroup(ictx: IdentityContext, req: Request): Promise<{ actor: Actor; group: Group }> {
  const actor = requireUser(ctx(req).user);
  const group = await loadGroup(ictx, req);
  requireLevel(actor, group.accessLevel, Level.OWNER);
  return { actor, group };
}

function attributes(req: Request): PushRuleAttributes {
  return defined(ruleParams.parse(req)) as PushRuleAttributes;
}

/**
 * Group push rules, for Owners and administrators: stored and served as GitLab does. Anvil
 * receives no Git pushes, so the rules are never applied.
 */
export function groupPushRuleRoutes(router: Router, ictx: IdentityContext): void {
  // GET /groups/:id/push_rule
  router.get('/groups/:id/push_rule', async (req, res) => {
    const { group } = await ownedGroup(ictx, req);
    const rule = await pushRuleStore.findForGroup(ictx.db, group.id);
    if (!rule) throw new NotFoundError();
    res.json(toGroupPushRule(rule));
  });

  // POST /groups/:id/push_rule
  router.post('/groups/:id/push_rule', async (req, res) => {
    const { actor, group } = await ownedGroup(ictx, req);
    const rule = await createPushRule(ictx, actor, group.id, attributes(req));
    res.status(201).json(toGroupPushRule(rule));
  });

  // PUT /groups/:id/push_rule
  router.put('/groups/:id/push_rule', async (req, res) => {
    const { actor, group } = await ownedGroup(ictx, req);
    const attrs = attributes(req);
    const rule = await pushRuleStore.findForGroup(ictx.db, group.id);
    if (!rule) throw new NotFoundError('Push rule');
    res.json(toGroupPushRule(await updatePushRule(ictx, actor, rule, attrs)));
  });

  // DELETE /groups/:id/push_rule
  router.delete('/groups/:id/push_rule', async (req, res) => {
    const { actor, group } = await ownedGroup(ictx, req);
    const rule = await pushRuleStore.findForGroup(ictx.db, group.id);
    if (!rule) throw new NotFoundError();
    await deletePushRule(ictx, actor, rule);
    res.status(204).end();
  });
}
