import { decodeRef } from './refs';

/**
 * The routing table: which service answers which `/api/v4` path, and everything the gateway does for
 * a route beyond forwarding it (which `:id` it resolves, which credentials count, who must be signed
 * in, whether it stores bodies or sends stored files, which answers it keeps). The gateway's code reads
 * these fields; no service is named anywhere else.
 *
 * Pattern syntax (relative to `/api/v4`):
 * - `name` a literal segment; `:id` one segment that the route's `resolve` applies to;
 *   `:x` any other single segment;
 * - `name*` a segment starting with `name` (e.g. `alert_management*`);
 * - a final `/*` matches zero or more further segments.
 * Literal segments win over `name*`, which wins over `:x`, which wins over `/*` (with backtracking),
 * so `/projects/import` never reaches `/projects/:id`.
 */

/** Every upstream service: the variable naming where it listens, and its loopback port by default. */
export const SERVICES = {
  identity: { urlVariable: 'IDENTITY_URL', port: 7101 },
  registry: { urlVariable: 'REGISTRY_URL', port: 7102 },
  'project-transfer': { urlVariable: 'PROJECT_TRANSFER_URL', port: 7103 },
  'work-items': { urlVariable: 'WORK_ITEMS_URL', port: 7104 },
  pipelines: { urlVariable: 'PIPELINES_URL', port: 7105 },
  alerting: { urlVariable: 'ALERTING_URL', port: 7106 },
} as const;

export type ServiceName = keyof typeof SERVICES;

/**
 * - `project` / `group`: `:id` (numeric or URL-encoded full path) is resolved for the caller; not found
 *   or not readable → GitLab's 404; the forwarded path carries the numeric id.
 * - `named-project`: the route's `projectPath` finds a project's full path in the path; resolved when
 *   present and readable, otherwise forwarded without a project.
 * - `none`: nothing to resolve.
 */
export type Resolve = 'project' | 'group' | 'named-project' | 'none';

/**
 * - `api`: GitLab's API guard (PRIVATE-TOKEN, private_token, Bearer PAT; scopes enforced).
 * - `conan`: GitLab's Conan routes (Basic with a token as password, the registry's Bearer JWT;
 *   everything else counts as none; scopes passed through). Read in `credentials.ts`.
 */
export type CredentialKind = 'api' | 'conan';

/** What the gateway does for a route's requests, beyond forwarding them to `service`. */
export interface RouteBehaviour {
  service: ServiceName;
  /** Which credentials count (default `api`). */
  credentials?: CredentialKind;
  /**
   * GitLab runs `authenticate!` before looking anything up (notes, subscriptions, to-dos, imports):
   * an anonymous caller gets `401 Unauthorized` even where the project would be a 404.
   */
  authenticated?: boolean;
  /** `authenticate_non_get!`: the same for any method but GET and HEAD. */
  authenticatedWrites?: boolean;
  /** With `FIPS_MODE`, answered `404 {"message":"404 Not Found"}` before anything else is looked at. */
  notFoundInFips?: boolean;
  /** The caller's `Authorization` reaches the service (it judges that credential itself). */
  keepAuthorization?: boolean;
  /** For `named-project`: the full path of the project the path segments name, or null. */
  projectPath?: (segs: string[]) => string | null;
  /** The gateway sends stored files the service names (`x-anvil-send-file`) itself. */
  sendsFiles?: boolean;
  /** The gateway stores bodies of these methods (and, if given, forwarded paths) itself (`TransferContext`). */
  storesBodies?: { methods: readonly string[]; path?: RegExp };
  /**
   * The service may mark answers reusable by the same caller (`x-anvil-reusable-answer`); any write
   * through these routes, and any event whose type starts with `writtenBy`, forgets its project's.
   */
  reusedAnswers?: { writtenBy: string };
  /** A successful write (any method but GET and HEAD) empties the gateway's caches before it is answered. */
  clearsCachesOnWrite?: boolean;
  /** Token scopes beyond `read_api` that allow GET and HEAD here (GitLab's `allow_access_with_scope`). */
  readScopes?: readonly string[];
}

/** One routing-table entry: a path pattern, what to resolve, and the route's behaviour. */
export interface RouteDef extends RouteBehaviour {
  pattern: string;
  resolve: Resolve;
}

/**
 * The registry's file uploads (the only requests it pre-authorises): v2 `…/revisions/:r/files/:f`
 * (recipe or package revision), v1 `…/v1/files/:name/:version/:user/:channel/:r/(export|package)/…`.
 */
export const CONAN_FILE_UPLOAD = /\/packages\/conan\/(v2\/conans\/.+\/revisions\/[^/]+\/files\/[^/?]+|v1\/files\/.+\/(export|package)\/.+)(\?|$)/;

/**
 * The project named by an instance-level Conan path (`/packages/conan/v1/conans/:name/:version/
 * :username/:channel/...` or `.../files/...`): the package username with `+` → `/`, or null.
 */
export function conanProjectPath(segs: string[]): string | null {
  if (segs[0] !== 'packages' || segs[1] !== 'conan') return null;
  if (segs[3] !== 'conans' && segs[3] !== 'files') return null;
  const username = segs.length >= 8 ? decodeRef(segs[6]) : null;
  return username && username.includes('+') ? username.replace(/\+/g, '/') : null;
}

/** GitLab's Conan API: its credentials, FIPS, sign-in for writes; files stored and sent by the gateway. */
const CONAN: RouteBehaviour = {
  service: 'registry',
  credentials: 'conan',
  authenticatedWrites: true,
  notFoundInFips: true,
  keepAuthorization: true,
  projectPath: conanProjectPath,
  sendsFiles: true,
  storesBodies: { methods: ['PUT'], path: CONAN_FILE_UPLOAD },
  reusedAnswers: { writtenBy: 'registry.' },
};

/** A job's artifacts upload (`POST /jobs/:id/artifacts`), stored by the gateway like Workhorse does for GitLab. */
export const JOB_ARTIFACTS_UPLOAD = /^\/api\/v4\/jobs\/\d+\/artifacts(\?|$)/;

/** GitLab's runner API: credentials the runner's own (passed through), artifact bodies stored by the gateway. */
const RUNNER_API: RouteBehaviour = {
  service: 'pipelines',
  keepAuthorization: true,
  storesBodies: { methods: ['POST'], path: JOB_ARTIFACTS_UPLOAD },
};

type Entry = [pattern: string, resolve?: Resolve];

/** The entries of one route family: each pattern with its `resolve` (default `none`) and the family's behaviour. */
function family(behaviour: RouteBehaviour, entries: Entry[]): RouteDef[] {
  return entries.map(([pattern, resolve = 'none']) => ({ ...behaviour, pattern, resolve }));
}

/** Every `/api/v4` route, by family. Order does not matter: specificity decides. */
export const ROUTES: RouteDef[] = [
  // identity: users, tokens, namespaces, groups, the projects catalog, memberships
  ...family({ service: 'identity', clearsCachesOnWrite: true }, [
    ['/user/*'], ['/users/*'], ['/personal_access_tokens/*'], ['/namespaces/*'], ['/groups'], ['/groups/:id/*', 'group'], ['/application/*'],
    ['/projects'], ['/projects/:id', 'project'], ['/projects/:id/members/*', 'project'], ['/projects/:id/share/*', 'project'],
  ]),
  // identity, LDAP (EE): the links look the group up without a visibility check (a missing group is
  // 403 after authenticate!), and ldap_sync answers 404 while LDAP is off before looking at the group
  ...family({ service: 'identity', authenticated: true }, [['/groups/:id/ldap_group_links/*']]),
  ...family({ service: 'identity' }, [['/groups/:id/ldap_sync']]),
  // registry: Conan v1/v2, instance level (project named by the package username) and project level;
  // authenticate/check_credentials/ping never look at the project (GitLab answers them for any :id)
  ...family(CONAN, [
    ['/packages/conan/*', 'named-project'], ['/projects/:id/packages/conan/*', 'project'],
    ['/projects/:id/packages/conan/:v/users/*'], ['/projects/:id/packages/conan/:v/ping'],
  ]),
  // work-items: issues, notes, emoji, todos, labels, milestones, thin MRs/snippets/epics
  ...family({ service: 'work-items' }, [
    ['/issues/*'], ['/issues_statistics'], ['/todos/*'], ['/merge_requests/*'], ['/snippets/*'],
    ['/projects/:id/issues/*', 'project'], ['/projects/:id/issues_statistics', 'project'], ['/projects/:id/labels/*', 'project'],
    ['/projects/:id/milestones/*', 'project'], ['/projects/:id/merge_requests/*', 'project'], ['/projects/:id/snippets/*', 'project'],
    ['/groups/:id/issues/*', 'group'], ['/groups/:id/issues_statistics', 'group'], ['/groups/:id/labels/*', 'group'],
    ['/groups/:id/milestones/*', 'group'], ['/groups/:id/merge_requests/*', 'group'], ['/groups/:id/epics/*', 'group'],
    // award emoji on notes: no `authenticate!` (anonymous reads of public awardables), unlike the notes API
    ['/projects/:id/issues/:iid/notes/:nid/award_emoji/*', 'project'], ['/projects/:id/merge_requests/:iid/notes/:nid/award_emoji/*', 'project'],
    ['/projects/:id/snippets/:sid/notes/:nid/award_emoji/*', 'project'],
  ]),
  ...family({ service: 'work-items', authenticated: true }, [
    ['/projects/:id/issues/:iid/notes/*', 'project'], ['/projects/:id/issues/:iid/subscribe', 'project'],
    ['/projects/:id/issues/:iid/unsubscribe', 'project'], ['/projects/:id/issues/:iid/todo', 'project'],
    ['/projects/:id/merge_requests/:iid/notes/*', 'project'], ['/projects/:id/snippets/:sid/notes/*', 'project'],
    ['/groups/:id/epics/:eid/notes/*', 'group'],
  ]),
  // pipelines, the Repository Files and Branches APIs (the CI sources); files are readable with `read_repository`
  ...family({ service: 'pipelines', readScopes: ['read_repository'] }, [['/projects/:id/repository/files/*', 'project']]),
  ...family({ service: 'pipelines' }, [['/projects/:id/repository/*', 'project']]),
  ...family({ service: 'pipelines' }, [['/projects/:id/pipelines/*', 'project'], ['/projects/:id/pipeline', 'project']]),
  ...family({ service: 'pipelines', authenticated: true }, [['/projects/:id/jobs/*', 'project']]),
  // pipelines, the runner API: runner and job tokens travel in the body, `Runner-Token` or `JOB-TOKEN`
  // and are the service's to judge; artifact uploads are stored by the gateway
  ...family(RUNNER_API, [['/user/runners'], ['/runners/*'], ['/jobs/*']]),
  ...family({ service: 'pipelines', authenticated: true }, [
    ['/projects/:id/runners/reset_registration_token', 'project'], ['/groups/:id/runners/reset_registration_token', 'group'],
  ]),
  // alerting (the notify endpoints outside /api/v4 are ALERT_SUFFIXES below)
  ...family({ service: 'alerting' }, [['/projects/:id/alert_management*/*', 'project']]),
  ...family({ service: 'project-transfer' }, [['/projects/:id/export/*', 'project']]),
  ...family({ service: 'project-transfer', authenticated: true }, [
    ['/projects/:id/import/*', 'project'], ['/projects/:id/relation-imports/*', 'project'], ['/projects/import/*'],
    ['/projects/import-relation/*'], ['/projects/remote-import/*'], ['/projects/remote-import-s3/*'],
  ]),
  // pipelines, CI Lint
  ...family({ service: 'pipelines' }, [['/projects/:id/ci/lint', 'project']]),
];

/**
 * Alert notification endpoints live outside `/api/v4`, at the project's path:
 * `/<namespace…>/<project>/alerts/notify/<name>/<identifier>[.json]` (HTTP integrations),
 * `/<namespace…>/<project>/alerts/notify[.json]` (legacy generic) and
 * `/<namespace…>/<project>/prometheus/alerts/notify[.json]`: GitLab's routes take the `.json`
 * format suffix or none. Suffixes are tried in this order (the Prometheus ones before the generic
 * ones they end with); one ending in `/` is a prefix that must be followed by more of the path.
 * The caller's credential is the integration's key, so the gateway passes `Authorization` through
 * untouched, resolves the project regardless of visibility, and forwards to alerting as
 * `/api/v4/projects/<id>/<suffix>` (e.g. `/api/v4/projects/7/alerts/notify/http/abc.json`), where the
 * service's verified router can mount it. A path naming no project is forwarded too, as project `0`
 * without a project in the context: the service gives it the answer a wrong key gets, so the
 * answer never tells which projects exist.
 */
export const ALERT_SUFFIXES = ['/prometheus/alerts/notify.json', '/prometheus/alerts/notify', '/alerts/notify.json', '/alerts/notify', '/alerts/notify/'] as const;

/** How the gateway treats the alert endpoints (ALERT_SUFFIXES). */
export const ALERT_ROUTE: RouteBehaviour = { service: 'alerting', keepAuthorization: true };
