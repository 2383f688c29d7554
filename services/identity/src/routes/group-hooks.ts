import type { Request, Router } from 'express';
import { checkUnmodifiedSince, ctx, HttpError, p, paginate, params, ParamError, TooManyRequestsError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toGroupHook } from '../entities/group-hook';
import { toWebHookLog } from '../entities/web-hook-log';
import type { Group } from '../groups/group-store';
import { EVENT_FLAGS, Hook, HookRow, toHook } from '../hooks/hook';
import { HookLogRow, hookLogStore, StatusFilter } from '../hooks/hook-log-store';
import { createHook, HookInput, HookMap, resendDelivery, setHookEntry, unsetHookEntry, updateHook } from '../hooks/hook-service';
import { hookStore } from '../hooks/hook-store';
import { TEST_TRIGGERS, TestTrigger, testHook } from '../hooks/test-hook';
import { Level, requireLevel } from '../policy';
import { defined, numericParam } from './helpers';
import { loadCurrentUser, loadGroup } from './loaders';

const pairs = () => p.array(p.hash({ key: p.string().required(), value: p.string().required() }));
const attributes = {
  url: p.string(),
  token: p.string(),
  name: p.string(),
  description: p.string(),
  ...(Object.fromEntries(EVENT_FLAGS.filter((f) => f !== 'milestone_events' && f !== 'repository_update_events').map((f) => [f, p.boolean()])) as Record<string, ReturnType<typeof p.boolean>>),
  enable_ssl_verification: p.boolean(),
  push_events_branch_filter: p.string(),
  branch_filter_strategy: p.enum(['wildcard', 'regex', 'all_branches'] as const),
  custom_webhook_template: p.string(),
  url_variables: pairs(),
  custom_headers: pairs(),
};
const createParams = params({ ...attributes, url: p.string().required() });
const updateParams = params(attributes);
const entryParams = params({ value: p.string().required() });
const HOOK_MAPS: HookMap[] = ['url_variables', 'custom_headers'];
const STATUS = /^(successful|client_failure|server_failure|[1-5][0-9][0-9])$/;
const eventsParams = params({
  status: p.array(p.string()).where((list) => list.every((s) => STATUS.test(s))),
  per_page: p.integer().where((n) => n >= 1 && n <= 20).default(20),
  page: p.integer().where((n) => n >= 1),
});

/** The group of the route when the caller is an Owner (GitLab's `read_web_hook`/`admin_web_hook`). */
async function ownedGroup(ictx: IdentityContext, req: Request): Promise<Group> {
  const group = await loadGroup(ictx, req);
  requireLevel(ctx(req).user, group.accessLevel, Level.OWNER);
  return group;
}

async function loadHook(ictx: IdentityContext, req: Request, group: Group): Promise<Hook> {
  const hook = await hookStore.find(ictx.db, group.id, numericParam(req, 'hook_id'));
  if (!hook) throw new HttpError(404, { message: '404 Not found' });
  return hook;
}

/** GitLab's `web_hook_test` and `web_hook_event_resend` limits: 5 a minute per group and user (this instance's count). */
function perMinuteLimiter(limit = 5, windowMs = 60_000): (key: string) => void {
  const seen = new Map<string, number[]>();
  return (key) => {
    const now = Date.now();
    const recent = (seen.get(key) ?? []).filter((t) => t > now - windowMs);
    if (recent.length >= limit) throw new TooManyRequestsError(Math.ceil((recent[0] + windowMs - now) / 1000));
    seen.set(key, [...recent, now]);
  };
}

/** Group hooks (Owners): list, read, create, change, delete, test, their URL variables and custom headers, and recent deliveries. */
export function groupHooksRoutes(router: Router, ictx: IdentityContext): void {
  const throttleResend = perMinuteLimiter();
  const throttleTest = perMinuteLimiter();
  // GET /groups/:id/hooks
  router.get('/groups/:id/hooks', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const { items, headers } = await paginate<HookRow>(req, hookStore.listQuery(ictx.db, group.id));
    res.set(headers);
    res.json(items.map((r) => toGroupHook(toHook(r))));
  });

  // GET /groups/:id/hooks/:hook_id
  router.get('/groups/:id/hooks/:hook_id', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    res.json(toGroupHook(await loadHook(ictx, req, group)));
  });

  // POST /groups/:id/hooks
  router.post('/groups/:id/hooks', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const input = defined(createParams.parse(req)) as HookInput & { url: string };
    res.status(201).json(toGroupHook(await createHook(ictx, group.id, input)));
  });

  // PUT /groups/:id/hooks/:hook_id
  router.put('/groups/:id/hooks/:hook_id', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const hook = await loadHook(ictx, req, group);
    const input = defined(updateParams.parse(req)) as HookInput;
    if (!Object.keys(input).length) throw new ParamError('No parameters provided');
    res.json(toGroupHook(await updateHook(ictx, hook, input)));
  });

  // DELETE /groups/:id/hooks/:hook_id
  router.delete('/groups/:id/hooks/:hook_id', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const hook = await loadHook(ictx, req, group);
    checkUnmodifiedSince(req, hook.updatedAt);
    await hookStore.delete(ictx.db, hook.id);
    res.status(204).end();
  });

  // GET /groups/:id/hooks/:hook_id/events
  router.get('/groups/:id/hooks/:hook_id/events', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const hook = await loadHook(ictx, req, group);
    const { status } = eventsParams.parse(req);
    const statuses = status?.map((s) => (/^\d+$/.test(s) ? Number(s) : s)) as StatusFilter | undefined;
    const { items, headers } = await paginate<HookLogRow>(req, hookLogStore.recentQuery(ictx.db, hook.id, statuses));
    res.set(headers);
    res.json(items.map(toWebHookLog));
  });

  // POST /groups/:id/hooks/:hook_id/test/:trigger
  router.post('/groups/:id/hooks/:hook_id/test/:trigger', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const hook = await loadHook(ictx, req, group);
    const trigger = String(req.params.trigger);
    if (!Object.hasOwn(TEST_TRIGGERS, trigger)) throw new ParamError('trigger does not have a valid value');
    const user = await loadCurrentUser(ictx, req);
    throttleTest(`${group.id}:${user.id}`);
    await testHook(ictx, hook, group.id, trigger as TestTrigger, user);
    res.status(201).json({ message: '201 Created' });
  });

  // POST /groups/:id/hooks/:hook_id/events/:hook_log_id/resend
  router.post('/groups/:id/hooks/:hook_id/events/:hook_log_id/resend', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const hook = await loadHook(ictx, req, group);
    throttleResend(`${group.id}:${ctx(req).user?.id}`);
    res.status(201).json(await resendDelivery(ictx, hook, numericParam(req, 'hook_log_id')));
  });

  for (const map of HOOK_MAPS) {
    // PUT /groups/:id/hooks/:hook_id/url_variables/:key, PUT /groups/:id/hooks/:hook_id/custom_headers/:key
    router.put(`/groups/:id/hooks/:hook_id/${map}/:key`, async (req, res) => {
      const hook = await loadHook(ictx, req, await ownedGroup(ictx, req));
      await setHookEntry(ictx, hook, map, String(req.params.key), entryParams.parse(req).value);
      res.status(204).end();
    });

    // DELETE /groups/:id/hooks/:hook_id/url_variables/:key, DELETE /groups/:id/hooks/:hook_id/custom_headers/:key
    router.delete(`/groups/:id/hooks/:hook_id/${map}/:key`, async (req, res) => {
      const hook = await loadHook(ictx, req, await ownedGroup(ictx, req));
      await unsetHookEntry(ictx, hook, map, String(req.params.key));
      res.status(204).end();
    });
  }
}
