import { RouteMatcher, ROUTES } from '../src';
import { parseTarget } from '../src/target';
import { conanProjectPath } from '../src/routes';
import { scopesAllow } from '../src/auth';

const matcher = new RouteMatcher(ROUTES);
const match = (path: string) => {
  const t = parseTarget(path, matcher);
  return t.kind === 'api' ? `${t.service} ${t.route.resolve}` : t.kind === 'alert' ? `alert ${t.projectPath}` : t.kind === 'refuse' ? `refuse ${t.refusal.status}` : `local ${t.name}`;
};

describe('routing table', () => {
  test.each([
    ['/api/v4/user', 'identity none'],
    ['/api/v4/user/emails/3', 'identity none'],
    ['/api/v4/users', 'identity none'],
    ['/api/v4/users/5/emails', 'identity none'],
    ['/api/v4/personal_access_tokens/self', 'identity none'],
    ['/api/v4/namespaces?search=x', 'identity none'],
    ['/api/v4/groups', 'identity none'],
    ['/api/v4/groups/12', 'identity group'],
    ['/api/v4/groups/a%2Fb/subgroups', 'identity group'],
    ['/api/v4/groups/3/descendant_groups', 'identity group'],
    ['/api/v4/groups/3/projects/shared', 'identity group'],
    ['/api/v4/groups/3/hooks/4', 'identity group'],
    ['/api/v4/groups/3/ldap_group_links/ldapmain/cn', 'identity none'],
    ['/api/v4/groups/3/ldap_group_links', 'identity none'],
    ['/api/v4/groups/3/ldap_sync', 'identity none'],
    ['/api/v4/groups/3/saml_group_links/name', 'identity group'],
    ['/api/v4/groups/3/push_rule', 'identity group'],
    ['/api/v4/groups/3/ssh_certificates/9', 'identity group'],
    ['/api/v4/groups/3/share/4', 'identity group'],
    ['/api/v4/groups/3/members/all', 'identity group'],
    ['/api/v4/projects', 'identity none'],
    ['/api/v4/projects/', 'identity none'],
    ['/api/v4/projects/5', 'identity project'],
    ['/api/v4/projects/group%2Fproject', 'identity project'],
    ['/api/v4/projects/5/members/7', 'identity project'],
    ['/api/v4/packages/conan/v1/ping', 'registry named-project'],
    ['/api/v4/packages/conan/v1/conans/pkg/1.0/grp+proj/stable/digest', 'registry named-project'],
    ['/api/v4/packages/conan/v2/users/authenticate', 'registry named-project'],
    ['/api/v4/projects/5/packages/conan/v1/conans/pkg/1.0/grp+proj/stable', 'registry project'],
    ['/api/v4/projects/5/packages/conan/v2/conans/pkg/1.0/_/_/revisions/abc/files/conanfile.py', 'registry project'],
    ['/api/v4/projects/5/packages/conan/v1/users/authenticate', 'registry none'],
    ['/api/v4/projects/5/packages/conan/v2/users/check_credentials', 'registry none'],
    ['/api/v4/projects/5/packages/conan/v1/ping', 'registry none'],
    ['/api/v4/issues?scope=all', 'work-items none'],
    ['/api/v4/issues/12', 'work-items none'],
    ['/api/v4/todos', 'work-items none'],
    ['/api/v4/merge_requests', 'work-items none'],
    ['/api/v4/snippets/3', 'work-items none'],
    ['/api/v4/projects/5/issues', 'work-items project'],
    ['/api/v4/projects/5/issues/3/notes/9/award_emoji', 'work-items project'],
    ['/api/v4/projects/5/issues/3/award_emoji', 'work-items project'],
    ['/api/v4/projects/5/labels', 'work-items project'],
    ['/api/v4/projects/5/milestones/2', 'work-items project'],
    ['/api/v4/projects/5/merge_requests/2/notes', 'work-items project'],
    ['/api/v4/projects/5/snippets/2/notes/1', 'work-items project'],
    ['/api/v4/groups/5/issues?state=closed', 'work-items group'],
    ['/api/v4/groups/5/epics/3/notes', 'work-items group'],
    ['/api/v4/groups/5/labels', 'work-items group'],
    ['/api/v4/projects/5/repository/files/ci%2Fbuild.yml?ref=main', 'pipelines project'],
    ['/api/v4/projects/5/repository/files/ci%2Fbuild.yml/raw', 'pipelines project'],
    ['/api/v4/projects/5/repository/branches', 'pipelines project'],
    ['/api/v4/projects/5/repository/branches/feature%2Fx', 'pipelines project'],
    ['/api/v4/projects/5/pipelines', 'pipelines project'],
    ['/api/v4/projects/5/pipelines/latest', 'pipelines project'],
    ['/api/v4/projects/5/pipelines/9/test_report_summary', 'pipelines project'],
    ['/api/v4/projects/5/pipeline', 'pipelines project'],
    ['/api/v4/projects/5/ci/lint', 'pipelines project'],
    ['/api/v4/projects/5/jobs', 'pipelines project'],
    ['/api/v4/projects/5/jobs/3/retry', 'pipelines project'],
    ['/api/v4/user/runners', 'pipelines none'],
    ['/api/v4/runners', 'pipelines none'],
    ['/api/v4/runners/verify', 'pipelines none'],
    ['/api/v4/jobs/request', 'pipelines none'],
    ['/api/v4/jobs/12/trace', 'pipelines none'],
    ['/api/v4/projects/5/runners/reset_registration_token', 'pipelines project'],
    ['/api/v4/groups/5/runners/reset_registration_token', 'pipelines group'],
    ['/api/v4/projects/5/alert_management_alerts/1/metric_images', 'alerting project'],
    ['/api/v4/projects/5/export', 'project-transfer project'],
    ['/api/v4/projects/5/export/download', 'project-transfer project'],
    ['/api/v4/projects/5/import', 'project-transfer project'],
    ['/api/v4/projects/5/relation-imports', 'project-transfer project'],
    ['/api/v4/projects/import', 'project-transfer none'],
    ['/api/v4/projects/remote-import', 'project-transfer none'],
    ['/api/v4/projects/remote-import-s3', 'project-transfer none'],
    ['/api/v4/projects/import-relation', 'project-transfer none'],
    ['/grp/sub/proj/alerts/notify/http-one/abc123.json', 'alert grp/sub/proj'],
    ['/grp/proj/alerts/notify.json', 'alert grp/proj'],
    ['/grp/proj/prometheus/alerts/notify.json', 'alert grp/proj'],
    ['/-/health', 'local health'],
    ['/metrics', 'local metrics'],
  ])('%s → %s', (path, expected) => {
    expect(match(path)).toBe(expected);
  });

  test.each([
    '/api/v4',
    '/api/v4/',
    '/api/v4/nothing',
    '/api/v4/projects/5/unknown',
    '/api/v4/projects/5/pipelinesX',
    '/api/v4/projects/import/../5',
    '/api/v4/projects//5',
    '/api/v4/groups/5/issues/../../../users',
    '/api/v4x/projects',
    '/proj/alerts/notify.json',
    '/unknown/page',
  ])('%s is not a route → 404', (path) => {
    expect(match(path)).toBe('refuse 404');
  });

  test.each([
    ['/api/v4/projects/5/repository/files/a.yml', ['read_repository']],
    ['/api/v4/projects/5/repository/branches', undefined],
  ])('%s accepts read scopes %j', (path, scopes) => {
    const t = parseTarget(path, matcher);
    expect(t.kind === 'api' ? t.route.readScopes : 'not a route').toEqual(scopes);
  });

  test('/api/v3 answers 410', () => {
    const t = parseTarget('/api/v3/projects', matcher);
    expect(t).toMatchObject({ kind: 'refuse', refusal: { status: 410, body: { error: 'API V3 is no longer supported. Use API V4 instead.' } } });
  });

  test.each([
    ['/api/v4/projects/5/issues/3/notes', true],
    ['/api/v4/projects/5/issues/3/notes/9/award_emoji', false],
    ['/api/v4/projects/5/merge_requests/3/notes/9/award_emoji/4', false],
    ['/api/v4/projects/5/snippets/3/notes/9/award_emoji', false],
    ['/api/v4/projects/5/issues/3/notes/9', true],
    ['/api/v4/projects/5/issues/3/subscribe', true],
    ['/api/v4/projects/5/issues/3/todo', true],
    ['/api/v4/projects/5/merge_requests/3/notes', true],
    ['/api/v4/groups/5/epics/3/notes/1', true],
    ['/api/v4/projects/import', true],
    ['/api/v4/projects/5/import', true],
    ['/api/v4/projects/5/issues/3', false],
    ['/api/v4/projects/5/issues/3/award_emoji', false],
    ['/api/v4/projects/5/export', false],
  ])('%s needs a signed-in user: %s', (path, expected) => {
    const t = parseTarget(path, matcher);
    expect(t.kind === 'api' && t.route.authenticated).toBe(expected);
  });

  test('the :id segment is the one rewritten', () => {
    const t = parseTarget('/api/v4/projects/a%2Fb/issues/3?x=1', matcher);
    if (t.kind !== 'api') throw new Error('not api');
    t.segs[t.route.idIndex] = '42';
    expect(t.forwardPath()).toBe('/api/v4/projects/42/issues/3?x=1');
  });

  test('alert endpoints forward under the resolved project', () => {
    const t = parseTarget('/grp/proj/alerts/notify/http/abc.json?x=1', matcher);
    if (t.kind !== 'alert') throw new Error('not alert');
    expect(t.forwardPath(7)).toBe('/api/v4/projects/7/alerts/notify/http/abc.json?x=1');
  });

  test('conan package username names the project', () => {
    const segs = (p: string) => p.split('/').slice(1);
    expect(conanProjectPath(segs('/packages/conan/v1/conans/pkg/1.0/grp+sub+proj/stable/digest'))).toBe('grp/sub/proj');
    expect(conanProjectPath(segs('/packages/conan/v1/files/pkg/1.0/grp+proj/stable/0/export/conanfile.py'))).toBe('grp/proj');
    expect(conanProjectPath(segs('/packages/conan/v1/conans/search'))).toBeNull();
    expect(conanProjectPath(segs('/packages/conan/v1/conans/pkg/1.0/_/_'))).toBeNull();
    expect(conanProjectPath(segs('/packages/conan/v1/ping'))).toBeNull();
  });

  test('every route pattern is reachable by a concrete path', () => {
    for (const r of ROUTES) {
      const concrete = r.pattern.replace(/:id/g, '5').replace(/:[a-z]+/g, 'x').replace(/\*$/, '').replace(/\*/g, '').replace(/\/$/, '');
      const t = parseTarget(`/api/v4${concrete}`, matcher);
      expect(t.kind === 'api' && t.route.pattern).toBe(r.pattern);
    }
  });
});

describe('scopesAllow', () => {
  test.each([
    [['read_repository'], 'GET', ['read_repository'], true],
    [['read_repository'], 'HEAD', ['read_repository'], true],
    [['read_repository'], 'POST', ['read_repository'], false],
    [['read_repository'], 'GET', [], false],
    [['read_api'], 'GET', [], true],
    [['api'], 'DELETE', [], true],
  ])('%j %s with route read scopes %j → %s', (scopes, method, readScopes, allowed) => {
    expect(scopesAllow(scopes, method, 'projects', readScopes)).toBe(allowed);
  });
});
