import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { readArchive } from '../../services/project-transfer/test/support/archive';
import { call, userWithToken } from './support/fleet-api';

/**
 * Project export through the gateway, over RabbitMQ between separate service processes: python-gitlab
 * (create, refresh until finished, download, import the archive as a new project) and @gitbeaker/rest (schedule with an upload to a
 * loopback receiver, poll, download, import).
 */
describe('project export through the gateway', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let projectId: number;
  let pipeline: { iid: number; sha: string };

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items', 'pipelines', 'project-transfer'], env: { ALLOW_LOCAL_REQUESTS: 'true', PROJECT_DOWNLOAD_EXPORT_LIMIT: '10' } });
    owner = await userWithToken(fleet, 'exporter');
    const project = await call(fleet, owner.token, 'POST', '/projects', { name: 'Source', path: 'source', description: 'the source' });
    projectId = project.id;
    const label = await call(fleet, owner.token, 'POST', `/projects/${projectId}/labels`, { name: 'bug', color: '#ff0000' });
    await call(fleet, owner.token, 'POST', `/projects/${projectId}/milestones`, { title: 'v1' });
    const issue = await call(fleet, owner.token, 'POST', `/projects/${projectId}/issues`, { title: 'first', labels: label.name });
    await call(fleet, owner.token, 'POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'hello' });
    await call(fleet, owner.token, 'POST', `/projects/${projectId}/issues`, { title: 'second' });
    await call(fleet, owner.token, 'POST', `/projects/${projectId}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'build:\n  script: [make]\n', commit_message: 'CI' });
    pipeline = await call(fleet, owner.token, 'POST', `/projects/${projectId}/pipeline`, { ref: 'main' });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('python-gitlab: exports.create(), refresh() until finished, download()', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'export_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, TOKEN: owner.token, PROJECT_ID: String(projectId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(['queued', 'started', 'finished']).toContain(out.first_status);
    expect(out.links).toEqual(['api_url', 'web_url']);
    expect(out.names).toEqual(expect.arrayContaining(['./VERSION', './tree/project.json', './tree/project/issues.ndjson', './tree/project/project_members.ndjson', './tree/project/ci_pipelines.ndjson']));
    expect(out.version).toBe('0.2.4');
    expect(out.description).toBe('exported by python-gitlab');
    expect(out.issues).toEqual([[1, 'first', 1, ['bug']], [2, 'second', 0, []]]);
    expect(out.labels).toEqual(['bug']);
    expect(out.milestones).toEqual(['v1']);
  }, 120_000);

  it('python-gitlab: the downloaded archive imported as a new project has the same issues, notes, labels and milestones', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'import_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, TOKEN: owner.token, PROJECT_ID: String(projectId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.first_status).toBe('scheduled');
    expect(out.path).toBe('exporter/roundtrip');
    expect(out.description).toBe('imported copy');
    expect(out.source.issues).toHaveLength(2);
    expect(out.imported).toEqual(out.source);
  }, 120_000);

  it('@gitbeaker/rest: scheduleExport with an upload to a loopback receiver, showExportStatus, download, import, showImportStatus', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: owner.token });
    const received: { method?: string; type?: string; body?: Buffer } = {};
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        Object.assign(received, { method: req.method, type: req.headers['content-type'], body: Buffer.concat(chunks) });
        res.writeHead(201).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bucket/archive.tar.gz`;
      expect(await api.ProjectImportExports.scheduleExport(projectId, { url, http_method: 'POST' })).toEqual({ message: '202 Accepted' });
      const until = Date.now() + 60_000;
      let status = await api.ProjectImportExports.showExportStatus(projectId);
      while ((status as Record<string, unknown>).export_status !== 'finished' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
        status = await api.ProjectImportExports.showExportStatus(projectId);
      }
      expect(status).toMatchObject({ id: projectId, name: 'Source', export_status: 'finished', _links: { api_url: `${fleet.url}/api/v4/projects/${projectId}/export/download` } });
      const until2 = Date.now() + 10_000;
      while (!received.body && Date.now() < until2) await new Promise((r) => setTimeout(r, 100));
      expect(received).toMatchObject({ method: 'POST', type: 'application/gzip' });
      const blob = await api.ProjectImportExports.download(projectId);
      const downloaded = Buffer.from(await blob.arrayBuffer());
      expect(downloaded.equals(received.body as Buffer)).toBe(true);
      expect((await readArchive(downloaded)).map((e) => e.name)).toEqual(expect.arrayContaining(['./VERSION', './tree/project.json', './tree/project/labels.ndjson']));
      const imported = await api.ProjectImportExports.import({ content: new Blob([downloaded]), filename: 'source.tar.gz' }, 'gitbeaker-copy');
      expect(imported).toMatchObject({ path: 'gitbeaker-copy', import_status: 'scheduled' });
      const id = (imported as unknown as { id: number }).id;
      let importStatus = await api.ProjectImportExports.showImportStatus(id);
      while (!['finished', 'failed'].includes(String((importStatus as Record<string, unknown>).import_status)) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
        importStatus = await api.ProjectImportExports.showImportStatus(id);
      }
      expect(importStatus).toMatchObject({ import_status: 'finished', failed_relations: [] });
      const titles = (await api.Issues.all({ projectId: id })).map((i) => i.title).sort();
      expect(titles).toEqual(['first', 'second']);
      const pipelines = await call(fleet, owner.token, 'GET', `/projects/${id}/pipelines`);
      expect(pipelines.map((p: any) => [p.iid, p.sha, p.ref, p.status])).toEqual([[pipeline.iid, pipeline.sha, 'main', 'canceled']]);
      const jobs = await call(fleet, owner.token, 'GET', `/projects/${id}/pipelines/${pipelines[0].id}/jobs`);
      expect(jobs.map((j: any) => [j.name, j.stage, j.status])).toEqual([['build', 'test', 'canceled']]);
    } finally {
      receiver.close();
    }
  }, 120_000);
});
