import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';

async function call(fleet: Fleet, token: string | null, method: string, p: string, body?: unknown): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, {
    method,
    headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function json(fleet: Fleet, token: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await call(fleet, token, method, p, body);
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${res.text}`);
  return res.text ? JSON.parse(res.text) : null;
}

/**
 * Project snippets through the real gateway: python-gitlab and @gitbeaker/rest end to end, and the
 * gateway's part (project resolution by path, anonymous reads of a public project's raw file).
 */
describe('project snippets through the gateway', () => {
  let fleet: Fleet;
  let reporter: { id: number; token: string };
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = (m: string, p: string, b?: unknown) => json(fleet, fleet.adminToken, m, p, b);
    const u = await admin('POST', '/users', { username: 'snipper', name: 'Snipper', email: 'snipper@example.com', password: 'Sup3r-secret-pw!', skip_confirmation: true });
    const t = await admin('POST', `/users/${u.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] });
    reporter = { id: u.id, token: t.token };
    const group = await admin('POST', '/groups', { name: 'Snips', path: 'snips', visibility: 'public' });
    const project = await admin('POST', '/projects', { name: 'Box', path: 'box', namespace_id: group.id, visibility: 'public' });
    projectId = project.id;
    await admin('POST', `/projects/${projectId}/members`, { user_id: reporter.id, access_level: 20 });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('python-gitlab: create, list, get, raw, update, move a file, delete', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'snippets_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, REPORTER_TOKEN: reporter.token, PROJECT_ID: String(projectId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.created).toEqual({ file_name: 'hello.py', files: ['a.txt', 'b.txt'], author: reporter.id });
    expect(out.listed).toEqual(['Py two', 'Py one']);
    expect(out.got).toEqual({ title: 'Py one', description: 'first', visibility: 'private' });
    expect(out.raw).toBe("print('hi')");
    expect(out.updated).toEqual({ title: 'Py one renamed', raw: "print('bye')" });
    expect(out.moved).toEqual(['a.txt', 'c.txt']);
    expect(out.after_delete).toBe(404);
  }, 120_000);

  it('@gitbeaker/rest: create with files, list, show, raw, one file raw, edit files, user agent detail, remove', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: reporter.token });
    const admin = new Gitlab({ host: fleet.url, token: fleet.adminToken });
    const created = await api.ProjectSnippets.create(projectId, 'GB', {
      visibility: 'public', description: 'from gitbeaker', files: [{ filePath: 'main.ts', content: 'export {};' }, { filePath: 'lib/b.ts', content: 'B' }],
    });
    expect(created).toMatchObject({ title: 'GB', description: 'from gitbeaker', visibility: 'public', file_name: 'main.ts', project_id: projectId });
    const all = await api.ProjectSnippets.all(projectId);
    expect(all.map((x) => x.id)).toContain(created.id);
    expect((await api.ProjectSnippets.show(projectId, created.id)).files).toEqual(created.files);
    expect(await api.ProjectSnippets.showContent(projectId, created.id)).toBe('export {};');
    expect(await api.ProjectSnippets.showRepositoryFileContent(projectId, created.id, 'main', 'lib/b.ts')).toBe('B');
    const edited = await api.ProjectSnippets.edit(projectId, created.id, { files: [{ action: 'update', filePath: 'lib/b.ts', content: 'B2' }, { action: 'delete', filePath: 'main.ts' }] });
    expect((edited.files ?? []).map((x: { path: string }) => x.path)).toEqual(['lib/b.ts']);
    expect(await api.ProjectSnippets.showContent(projectId, created.id)).toBe('B2');
    const detail = await admin.ProjectSnippets.showUserAgentDetails(projectId, created.id);
    expect(detail).toMatchObject({ user_agent: expect.any(String), ip_address: expect.any(String), akismet_submitted: false });
    await api.ProjectSnippets.remove(projectId, created.id);
    await expect(api.ProjectSnippets.show(projectId, created.id)).rejects.toThrow();
  });

  it('resolves the project by path and serves a public snippet\'s files to anonymous callers', async () => {
    const s = await json(fleet, reporter.token, 'POST', '/projects/snips%2Fbox/snippets', {
      title: 'Public', visibility: 'public', files: [{ file_path: 'dir/x.rb', content: 'X' }],
    });
    expect(s.project_id).toBe(projectId);
    const raw = await call(fleet, null, 'GET', `/projects/snips%2Fbox/snippets/${s.id}/files/main/${encodeURIComponent('dir/x.rb')}/raw`);
    expect(raw).toMatchObject({ status: 200, text: 'X' });
    expect(raw.headers.get('content-disposition')).toBe(`inline; filename="x.rb"; filename*=UTF-8''x.rb`);
    expect((await call(fleet, null, 'GET', `/projects/${projectId}/snippets`)).status).toBe(401);
  });
});
