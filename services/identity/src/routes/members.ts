import type { Request, Router } from 'express';
import { Actor } from '@anvil/auth';
import { ctx, NotFoundError, p, paginate, params, RecordNotFoundError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toMemberEntity } from '../entities/member';
import { MEMBER_LEVELS, MemberRow, toMember } from '../members/member';
import { addMember, MemberSource, removeMember, updateMember } from '../members/member-service';
import { MemberSources, memberStore } from '../members/member-store';
import { Level, requireLevel, requireUser } from '../policy';
import { contains } from '../sql';
import type { Knex } from 'knex';
import { effectiveLevel } from '../projects/project';
import { numericParam } from './helpers';
import { loadGroup, loadProject } from './loaders';

const level = () => p.integer().where((n) => MEMBER_LEVELS.includes(n));
const listParams = params({ query: p.string(), user_ids: p.array(p.integer()), skip_users: p.array(p.integer()) });
const createParams = params({ user_id: p.integer().required(), access_level: level().required(), expires_at: p.date() });
const updateParams = params({ access_level: level().required(), expires_at: p.date() });

/** A loaded member source: what to manage, who may, and whose memberships are inherited. */
interface LoadedSource {
  source: MemberSource;
  inherited: MemberSources;
  /** The level that may manage members (Maintainer on projects, Owner on groups). */
  manageLevel: number;
}

type Loader = (ictx: IdentityContext, req: Request) => Promise<LoadedSource>;

const callerLevel = (actor: Actor | null, level: number) => (actor?.admin ? Level.OWNER : level);

const projectSource: Loader = async (ictx, req) => {
  const project = await loadProject(ictx, req);
  const namespaceIds = project.namespace.kind === 'group' ? project.namespace.traversalIds : [];
  return {
    source: { type: 'Project', id: project.id, callerLevel: callerLevel(ctx(req).user, effectiveLevel(project)) },
    inherited: { projectId: project.id, namespaceIds },
    manageLevel: Level.MAINTAINER,
  };
};

const groupSource: Loader = async (ictx, req) => {
  const group = await loadGroup(ictx, req);
  return {
    source: { type: 'Namespace', id: group.id, callerLevel: callerLevel(ctx(req).user, group.accessLevel) },
    inherited: { namespaceIds: group.traversalIds },
    manageLevel: Level.OWNER,
  };
};

function filtered(q: Knex.QueryBuilder, input: ReturnType<typeof listParams.parse>, prefix: string): Knex.QueryBuilder {
  if (input.query) q.where((w) => w.whereILike(`${prefix}u_username`, contains(input.query as string)).orWhereILike(`${prefix}u_name`, contains(input.query as string)));
  if (input.user_ids?.length) q.whereIn(`${prefix}user_id`, input.user_ids);
  if (input.skip_users?.length) q.whereNotIn(`${prefix}user_id`, input.skip_users);
  return q;
}

function mount(router: Router, ictx: IdentityContext, kind: 'projects' | 'groups', load: Loader): void {
  // GET /:kind/:id/members
  router.get(`/${kind}/:id/members`, async (req, res) => {
    const { source } = await load(ictx, req);
    const input = listParams.parse(req);
    const base = memberStore.direct(ictx.db, source.type, source.id);
    const q = ictx.db.queryBuilder().select('*').from(base.clearOrder().as('x')).orderBy('x.id');
    const { items: rows, headers } = await paginate<MemberRow>(req, filtered(q, input, 'x.'));
    res.set(headers);
    res.json(rows.map((r) => toMemberEntity(toMember(r), ctx(req).base)));
  });

  // GET /:kind/:id/members/all
  router.get(`/${kind}/:id/members/all`, async (req, res) => {
    const { inherited } = await load(ictx, req);
    const { items: rows, headers } = await paginate<MemberRow>(req, filtered(memberStore.inherited(ictx.db, inherited), listParams.parse(req), 'x.'));
    res.set(headers);
    res.json(rows.map((r) => toMemberEntity(toMember(r), ctx(req).base)));
  });

  // GET /:kind/:id/members/all/:user_id
  router.get(`/${kind}/:id/members/all/:user_id`, async (req, res) => {
    const { inherited } = await load(ictx, req);
    const row = (await memberStore.inherited(ictx.db, inherited).where('x.user_id', numericParam(req, 'user_id')).first()) as MemberRow | undefined;
    if (!row) throw new RecordNotFoundError();
    res.json(toMemberEntity(toMember(row), ctx(req).base));
  });

  // GET /:kind/:id/members/:user_id
  router.get(`/${kind}/:id/members/:user_id`, async (req, res) => {
    const { source } = await load(ictx, req);
    const member = await memberStore.find(ictx.db, source.type, source.id, numericParam(req, 'user_id'));
    if (!member) throw new RecordNotFoundError();
    res.json(toMemberEntity(member, ctx(req).base));
  });

  // POST /:kind/:id/members
  router.post(`/${kind}/:id/members`, async (req, res) => {
    const actor = requireUser(ctx(req).user);
    const { source, manageLevel } = await load(ictx, req);
    requireLevel(actor, source.callerLevel, manageLevel);
    const input = createParams.parse(req);
    const member = await addMember(ictx, actor, source, input.user_id, input);
    res.status(201).json(toMemberEntity(member, ctx(req).base));
  });

  // PUT /:kind/:id/members/:user_id
  router.put(`/${kind}/:id/members/:user_id`, async (req, res) => {
    const actor = requireUser(ctx(req).user);
    const { source, manageLevel } = await load(ictx, req);
    requireLevel(actor, source.callerLevel, manageLevel);
    const userId = numericParam(req, 'user_id');
    const member = await updateMember(ictx, source, userId, updateParams.parse(req));
    res.json(toMemberEntity(member, ctx(req).base));
  });

  // DELETE /:kind/:id/members/:user_id
  router.delete(`/${kind}/:id/members/:user_id`, async (req, res) => {
    const actor = requireUser(ctx(req).user);
    const { source, manageLevel } = await load(ictx, req);
    await removeMember(ictx, actor, source, numericParam(req, 'user_id'), manageLevel);
    res.status(204).end();
  });
}

/** Project and group members routes (direct, inherited, add, change, remove). */
export function membersRoutes(router: Router, ictx: IdentityContext): void {
  mount(router, ictx, 'projects', projectSource);
  mount(router, ictx, 'groups', groupSource);
}
