/**
 * The routing table: which service answers which `/api/v4` path, and how the gateway prepares the
 * request (which `:id` it resolves, which authentication rules apply).
 *
 * Pattern syntax (relative to `/api/v4`):
 * - `name` a literal segment; `:id` one segment that the route's `resolve` applies to;
 *   `:x` any other single segment;
 * - `name*` a segment starting with `name` (e.g. `alert_management*`);
 * - a final `/*` matches zero or more further segments.
 * Literal segments win over `name*`, which wins over `:x`, which wins over `/*` (with backtracking),
 * so `/projects/import` never reaches `/projects/:id`.
 */

export type ServiceName = 'identity' | 'registry' | 'project-transfer' | 'work-items' | 'pipelines' | 'alerting';

/**
 * - `project` / `group`: `:id` (numeric or URL-encoded full path) is resolved for the caller; not found
 *   or not readable → GitLab's 404; the forwarded path carries the numeric id.
 * - `conan-user`: instance-level Conan paths name the project in the package's `username`
 *   (`group+project`); resolved when present and readable, otherwise forwarded without a project.
 * - `none`: nothing to resolve.
 */
export type Resolve = 'project' | 'group' | 'conan-user' | 'none';

/**
 * - `api`: GitLab's API guard (PRIVATE-TOKEN, private_token, Bearer PAT; scopes enforced).
 * - `registry`: package-registry rules (also Basic and the registry's Bearer JWT; scopes passed through).
 */
export type AuthMode = 'api' | 'registry';

export interface RouteDef {
  pattern: string;
  service: ServiceName;
  resolve: Resolve;
  auth?: AuthMode;
  /**
   * GitLab runs `authenticate!` before looking anything up (notes, subscriptions, to-dos, imports):
   * an anonymous caller gets `401 Unauthorized` even where the project would be a 404.
   */
  authenticated?: boolean;
}

const id = (service: ServiceName, pattern: string, resolve: Resolve = 'none'): RouteDef => ({ pattern, service, resolve });
const signedIn = (service: ServiceName, pattern: string, resolve: Resolve = 'none'): RouteDef => ({ pattern, service, resolve, authenticated: true });
const reg = (pattern: string, resolve: Resolve): RouteDef => ({ pattern, service: 'registry', resolve, auth: 'registry' });

/** Every `/api/v4` route family, grouped by service. Order does not matter: specificity decides. */
export const ROUTES: RouteDef[] = [
  // identity: users, tokens, namespaces, groups, the projects catalog, memberships
  id('identity', '/user/*'),
  id('identity', '/users/*'),
  id('identity', '/personal_access_tokens/*'),
  id('identity', '/namespaces/*'),
  id('identity', '/groups'),
  id('identity', '/groups/:id/*', 'group'),
  id('identity', '/projects'),
  id('identity', '/projects/:id', 'project'),
  id('identity', '/projects/:id/members/*', 'project'),

  // registry: Conan v1/v2, instance level (project named by the package username) and project level
  reg('/packages/conan/*', 'conan-user'),
  reg('/projects/:id/packages/conan/*', 'project'),
  // authenticate/check_credentials/ping never look at the project (GitLab answers them for any :id)
  reg('/projects/:id/packages/conan/:v/users/*', 'none'),
  reg('/projects/:id/packages/conan/:v/ping', 'none'),

  // work-items: issues, notes, emoji, todos, labels, milestones, thin MRs/snippets/epics
  id('work-items', '/issues/*'),
  id('work-items', '/issues_statistics'),
  id('work-items', '/todos/*'),
  id('work-items', '/merge_requests/*'),
  id('work-items', '/snippets/*'),
  id('work-items', '/projects/:id/issues/*', 'project'),
  signedIn('work-items', '/projects/:id/issues/:iid/notes/*', 'project'),
  signedIn('work-items', '/projects/:id/issues/:iid/subscribe', 'project'),
  signedIn('work-items', '/projects/:id/issues/:iid/unsubscribe', 'project'),
  signedIn('work-items', '/projects/:id/issues/:iid/todo', 'project'),
  signedIn('work-items', '/projects/:id/merge_requests/:iid/notes/*', 'project'),
  signedIn('work-items', '/projects/:id/snippets/:sid/notes/*', 'project'),
  signedIn('work-items', '/groups/:id/epics/:eid/notes/*', 'group'),
  id('work-items', '/projects/:id/issues_statistics', 'project'),
  id('work-items', '/projects/:id/labels/*', 'project'),
  id('work-items', '/projects/:id/milestones/*', 'project'),
  id('work-items', '/projects/:id/merge_requests/*', 'project'),
  id('work-items', '/projects/:id/snippets/*', 'project'),
  id('work-items', '/groups/:id/issues/*', 'group'),
  id('work-items', '/groups/:id/issues_statistics', 'group'),
  id('work-items', '/groups/:id/labels/*', 'group'),
  id('work-items', '/groups/:id/milestones/*', 'group'),
  id('work-items', '/groups/:id/merge_requests/*', 'group'),
  id('work-items', '/groups/:id/epics/*', 'group'),

  // pipelines
  id('pipelines', '/projects/:id/pipelines/*', 'project'),
  id('pipelines', '/projects/:id/pipeline', 'project'),

  // alerting (the notify endpoints outside /api/v4 are ALERT_ROUTES below)
  id('alerting', '/projects/:id/alert_management*/*', 'project'),

  // project-transfer
  id('project-transfer', '/projects/:id/export/*', 'project'),
  signedIn('project-transfer', '/projects/:id/import/*', 'project'),
  signedIn('project-transfer', '/projects/:id/relation-imports/*', 'project'),
  signedIn('project-transfer', '/projects/import/*'),
  signedIn('project-transfer', '/projects/import-relation/*'),
  signedIn('project-transfer', '/projects/remote-import/*'),
  signedIn('project-transfer', '/projects/remote-import-s3/*'),
];

/**
 * Alert notification endpoints live outside `/api/v4`, at the project's path:
 * `/<namespace…>/<project>/alerts/notify/<name>/<identifier>.json` (HTTP integrations),
 * `/<namespace…>/<project>/alerts/notify.json` (legacy generic) and
 * `/<namespace…>/<project>/prometheus/alerts/notify.json`.
 * The caller's credential is the integration's key, so the gateway passes `Authorization` through
 * untouched, resolves the project regardless of visibility, and forwards to alerting as
 * `/api/v4/projects/<id>/<suffix>` (e.g. `/api/v4/projects/7/alerts/notify/http/abc.json`), where the
 * service's verified router can mount it.
 */
export const ALERT_SUFFIXES = ['/prometheus/alerts/notify.json', '/alerts/notify.json', '/alerts/notify/'] as const;
