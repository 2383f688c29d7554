/**
 * `only:`/`except:` evaluation as GitLab's Gitlab::Ci::Build::Policy (Refs, Variables, Changes,
 * Kubernetes). Pure. See ../shared/reference/ci-config.md §5.
 */
import { compileRegex, evaluateExpression, ExpressionError } from './expression';

/** The pipeline facts a policy looks at. */
export interface PolicyContext {
  ref: string;
  tag: boolean;
  source: string;
  projectPath: string | null;
  variables: Record<string, string>;
}

/** `only: [branches, tags]`, what jobs without `rules` get when `only` is absent. */
export const DEFAULT_ONLY = { refs: ['branches', 'tags'] };

const SOURCE_KEYWORDS: Record<string, string> = {
  push: 'pushes',
  web: 'web',
  api: 'api',
  trigger: 'triggers',
  schedule: 'schedules',
  merge_request_event: 'merge_requests',
  pipeline: 'pipelines',
  parent_pipeline: 'pipelines',
  chat: 'chat',
  external: 'external',
  external_pull_request_event: 'external_pull_requests',
};

function matchesRegex(pattern: string, ref: string): boolean {
  const m = /^\/(.+)\/([imsx]*)$/s.exec(pattern);
  if (!m) return false;
  try {
    return compileRegex(m[1], m[2]).test(ref);
  } catch (err) {
    if (err instanceof ExpressionError) return false;
    throw err;
  }
}

/** True when one ref pattern matches (keyword, source, `/regex/`, or the ref's name; `@path` restricts the project). */
export function refMatches(pattern: string, ctx: PolicyContext): boolean {
  let body = pattern;
  const at = pattern.lastIndexOf('@');
  if (at > 0 && !pattern.endsWith('/')) {
    const path = pattern.slice(at + 1);
    body = pattern.slice(0, at);
    if (ctx.projectPath !== null && path !== ctx.projectPath) return false;
  }
  if (body === 'branches') return !ctx.tag;
  if (body === 'tags') return ctx.tag;
  if (body === ctx.source || body === SOURCE_KEYWORDS[ctx.source]) return true;
  if (body.startsWith('/')) return matchesRegex(body, ctx.ref);
  return body === ctx.ref;
}

function specsOf(policy: Record<string, unknown>, ctx: PolicyContext): boolean[] {
  const specs: boolean[] = [];
  if (Array.isArray(policy.refs)) specs.push((policy.refs as string[]).some((p) => refMatches(String(p), ctx)));
  if (Array.isArray(policy.variables)) {
    specs.push((policy.variables as string[]).some((expr) => {
      try {
        return evaluateExpression(expr, ctx.variables);
      } catch {
        return false;
      }
    }));
  }
  if ('changes' in policy) specs.push(true);
  if ('kubernetes' in policy) specs.push(false);
  return specs;
}

/** True when the job stays: every `only` condition holds and no `except` condition does. */
export function policyAllows(only: Record<string, unknown> | null, except: Record<string, unknown> | null, ctx: PolicyContext): boolean {
  if (only && !specsOf(only, ctx).every(Boolean)) return false;
  if (except && specsOf(except, ctx).some(Boolean)) return false;
  return true;
}
