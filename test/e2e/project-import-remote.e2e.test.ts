import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/gitlab-export');
const LIGHT = readFileSync(path.join(FIXTURES, 'light.tar.gz'));
const GROUP = readFileSync(path.join(FIXTURES, 'group.tar.gz'));
const lightIssues = readFileSync(path.join(FIXTURES, 'light/tree/project/issues.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((i) => [i.iid, i.title]);

/**
 * Remote import and relation import through the gateway, over RabbitMQ between separate service
 * processes: python-gitlab's remote_import() of an archive on a loopback server (local requests
 * allowed), and a multipart import-relation with its tracker listed.
 */
describe('remote and relation import through the gateway', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const html = req.url === '/page.html';
      const body = html ? Buffer.from('<html></html>') : LIGHT;
      res.writeHead(200, { 'Content-Type': html ? 'text/html' : 'application/gzip', 'Content-Length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fleet = await startFleet({ services: ['identity', 'work-items', 'pipelines', 'project-transfer'], env: { ALLOW_LOCAL_REQUESTS: 'true' } });
    owner = await userWithToken(fleet, 'remote-importer');
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
    await new Promise((r) => server?.close(r));
  });

  it('python-gitlab: remote_import() fetches, imports and finishes; a text/html URL gets GitLab\'s 400', async () => {
    // asynchronous: the archive server runs in this process and must answer while python waits
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile('/usr/bin/python3', [path.join(__dirname, 'python', 'remote_import_client.py')], {
        env: { ...process.env, ANVIL_URL: fleet.url, TOKEN: owner.token, ARCHIVE_URL: `${base}/light.tar.gz`, BAD_URL: `${base}/page.html` },
        encoding: 'utf8',
        timeout: 90_000,
      }, (err, out, errOut) => (err ? reject(new Error(`python-gitlab failed: ${errOut}\n${out}`)) : resolve(out)));
    });
    const out = JSON.parse(stdout.trim().split('\n').pop() as string);
    expect(out).toEqual({
      first_status: 'scheduled',
      status: 'finished',
      issues: lightIssues,
      refused: [400, "Content type 'text/html' not allowed. (Allowed: application/gzip, application/x-tar, application/x-gzip)"],
    });
  }, 120_000);

  it('POST /projects/import-relation (multipart) re-imports issues; GET relation-imports lists the tracker', async () => {
    const project = await call(fleet, owner.token, 'POST', '/projects', { path: 'relations' });
    const form = new FormData();
    form.set('path', project.path_with_namespace);
    form.set('relation', 'issues');
    form.set('file', new Blob([GROUP]), 'group.tar.gz');
    const res = await fetch(`${fleet.url}/api/v4/projects/import-relation`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token }, body: form });
    const tracker = (await res.json()) as { id: number };
    expect([res.status, tracker]).toEqual([201, expect.objectContaining({ project_path: project.path_with_namespace, relation: 'issues', status: 'created' })]);
    const until = Date.now() + 30_000;
    let list: { id: number; status: string }[] = [];
    while (Date.now() < until) {
      list = await call(fleet, owner.token, 'GET', `/projects/${project.id}/relation-imports`);
      if (list[0]?.status === 'finished') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(list).toEqual([expect.objectContaining({ id: tracker.id, status: 'finished' })]);
    const issues = await call(fleet, owner.token, 'GET', `/projects/${project.id}/issues`);
    const want = readFileSync(path.join(FIXTURES, 'group/tree/project/issues.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).iid).sort();
    expect(issues.map((i: { iid: number }) => i.iid).sort()).toEqual(want);
  }, 60_000);
});
