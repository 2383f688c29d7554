import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

/** An export archive holding only `ci_pipelines.ndjson` with these lines, packed by the system `tar`. */
function pipelinesArchive(lines: Record<string, unknown>[]): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'anvil-relation-'));
  try {
    mkdirSync(path.join(dir, 'tree/project'), { recursive: true });
    writeFileSync(path.join(dir, 'VERSION'), '0.2.4');
    writeFileSync(path.join(dir, 'tree/project.json'), JSON.stringify({ description: null }));
    writeFileSync(path.join(dir, 'tree/project/ci_pipelines.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    execFileSync('tar', ['-czf', path.join(dir, 'export.tar.gz'), '-C', dir, './VERSION', './tree']);
    return readFileSync(path.join(dir, 'export.tar.gz'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const line = (iid: number, sha: string) => ({
  iid, ref: 'main', sha, before_sha: null, status: 'success', source: 'push', user_id: 1, created_at: '2024-01-02T03:04:05.000Z',
  stages: [{ name: 'build', position: 0, builds: [{ name: `make-${iid}`, stage: 'build', stage_idx: 0, status: 'success', when: 'on_success', options: {} }] }],
});

/** A ci_pipelines relation import through the gateway: project-transfer unpacks, pipelines imports and reports, the tracker finishes. */
describe('POST /projects/import-relation (ci_pipelines)', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'pipelines', 'project-transfer'], env: { IMPORT_PARTS: 'pipelines' } });
    owner = await userWithToken(fleet, 'pipeline-relations');
  }, 180_000);
  afterAll(async () => fleet?.stop());

  it('imports the pipelines the project lacks with their jobs, skips the iid it has, and finishes the tracker', async () => {
    const project = await call(fleet, owner.token, 'POST', '/projects', { path: 'pipeline-relations' });
    await call(fleet, owner.token, 'POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'build:\n  script: [make]\n', commit_message: 'CI' });
    const mine = await call(fleet, owner.token, 'POST', `/projects/${project.id}/pipeline`, { ref: 'main' });
    expect(mine.iid).toBe(1);
    const form = new FormData();
    form.set('path', project.path_with_namespace);
    form.set('relation', 'ci_pipelines');
    form.set('file', new Blob([pipelinesArchive([line(1, 'a'.repeat(40)), line(2, 'b'.repeat(40))])]), 'export.tar.gz');
    const res = await fetch(`${fleet.url}/api/v4/projects/import-relation`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token }, body: form });
    const tracker = (await res.json()) as { id: number };
    expect([res.status, tracker]).toEqual([201, expect.objectContaining({ relation: 'ci_pipelines', status: 'created' })]);
    const until = Date.now() + 30_000;
    let list: { id: number; status: string }[] = [];
    while (Date.now() < until) {
      list = await call(fleet, owner.token, 'GET', `/projects/${project.id}/relation-imports`);
      if (['finished', 'failed'].includes(list[0]?.status)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(list).toEqual([expect.objectContaining({ id: tracker.id, relation: 'ci_pipelines', status: 'finished' })]);
    const pipelines = await call(fleet, owner.token, 'GET', `/projects/${project.id}/pipelines`);
    expect(pipelines.map((p: any) => [p.iid, p.sha, p.status])).toEqual([[2, 'b'.repeat(40), 'success'], [1, mine.sha, mine.status]]);
    const jobs = await call(fleet, owner.token, 'GET', `/projects/${project.id}/pipelines/${pipelines[0].id}/jobs`);
    expect(jobs.map((j: any) => [j.name, j.stage, j.status])).toEqual([['make-2', 'build', 'success']]);
  }, 90_000);
});
