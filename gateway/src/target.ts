import type { CompiledRoute, RouteMatcher } from './matcher';
import { malformedCredentials, malformedUrl } from './malformed';
import { Refusal, refusals } from './refusals';
import { ALERT_ROUTE, ALERT_SUFFIXES, type RouteBehaviour, ServiceName } from './routes';

/** What a request URL is aimed at, before authentication. */
export type Target =
  | {
      kind: 'api';
      service: ServiceName;
      route: CompiledRoute;
      /** Segments after /api/v4 (the resolver rewrites the `:id` one in place). */
      segs: string[];
      query: string;
      /** The path (and query) to forward, built after resolution. */
      forwardPath(projectId?: number): string;
    }
  | { kind: 'alert'; service: ServiceName; route: RouteBehaviour; projectPath: string; query: string; forwardPath(projectId?: number): string }
  | { kind: 'local'; name: 'health' | 'liveness' | 'readiness' | 'metrics' }
  | { kind: 'refuse'; refusal: Refusal };

/** A target the gateway forwards. */
export type Forwardable = Extract<Target, { kind: 'api' | 'alert' }>;

const API = '/api/v4';
const LOCAL: Record<string, 'health' | 'liveness' | 'readiness' | 'metrics'> = {
  '/-/health': 'health',
  '/-/liveness': 'liveness',
  '/-/readiness': 'readiness',
  '/metrics': 'metrics',
};

/** Empty, `.` and `..` segments are refused: the gateway and the service must see the same path. */
function badSegment(s: string): boolean {
  return s === '' || s === '.' || s === '..';
}

/**
 * Routes a raw request URL (`req.url`): an API route, an alert endpoint, a local page, or a refusal
 * (also of a malformed path, query or `authorization`, `malformed.ts`).
 */
export function parseTarget(url: string, matcher: RouteMatcher, authorization?: string): Target {
  if (url[0] !== '/') {
    try {
      const u = new URL(url);
      url = u.pathname + u.search;
    } catch {
      return { kind: 'refuse', refusal: refusals.notFound() };
    }
  }
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  if (malformedUrl(path, query) || malformedCredentials(authorization)) return { kind: 'refuse', refusal: refusals.malformed() };
  if (path.startsWith(API) && (path.length === API.length || path[API.length] === '/')) return apiTarget(path, query, matcher);
  if (path.startsWith('/api/v3/') || path === '/api/v3') return { kind: 'refuse', refusal: refusals.apiV3() };
  const local = LOCAL[path];
  if (local) return { kind: 'local', name: local };
  return alertTarget(path, query) ?? { kind: 'refuse', refusal: refusals.notFound() };
}

function apiTarget(path: string, query: string, matcher: RouteMatcher): Target {
  const segs = path.slice(API.length + 1).split('/');
  const trailing = segs.length > 1 && segs[segs.length - 1] === '';
  if (trailing) segs.pop();
  if (segs.some(badSegment)) return { kind: 'refuse', refusal: refusals.notFound() };
  const route = matcher.match(segs);
  if (!route) return { kind: 'refuse', refusal: refusals.notFound() };
  const suffix = (trailing ? '/' : '') + (query ? `?${query}` : '');
  return {
    kind: 'api',
    service: route.service,
    route,
    segs,
    query,
    forwardPath: () => `${API}/${segs.join('/')}${suffix}`,
  };
}

/** `/<namespace…>/<project>/{alerts/notify…|prometheus/alerts/notify[.json]}` → ALERT_ROUTE's service. */
function alertTarget(path: string, query: string): Target | null {
  let cut = -1;
  for (const s of ALERT_SUFFIXES) {
    const at = s.endsWith('/') ? path.indexOf(s) : path.endsWith(s) ? path.length - s.length : -1;
    if (at > 0 && (!s.endsWith('/') || path.length > at + s.length)) {
      cut = at;
      break;
    }
  }
  if (cut < 0) return null;
  const parts = path.slice(1, cut).split('/');
  if (parts.length < 2 || parts.some(badSegment) || parts[0] === 'api' || parts[0] === '-') return null;
  let projectPath: string;
  try {
    projectPath = parts.map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
  const suffix = path.slice(cut) + (query ? `?${query}` : '');
  return {
    kind: 'alert',
    service: ALERT_ROUTE.service,
    route: ALERT_ROUTE,
    projectPath,
    query,
    forwardPath: (projectId) => `${API}/projects/${projectId ?? 0}${suffix}`,
  };
}
