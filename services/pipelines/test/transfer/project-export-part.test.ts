import { randomUUID } from 'node:crypto';
import type { TestService } from '@anvil/testing';
import { STATUS_ENUM } from '../../src/transfer/export-lines';
import type { PipelinesWorld } from '../support/pipelines';
import { readLines, request, startTransferPipelines } from './support';

let svc: TestService;
let world: PipelinesWorld;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ svc, world, stop } = await startTransferPipelines());
});
afterAll(async () => stop?.());

async function exportProject(projectId: number) {
  const export_id = randomUUID();
  const prefix = `exports/${export_id}/`;
  const done = await request(svc, 'transfer.export.requested', { export_id, project_id: projectId, user_id: 1, description: null, prefix }, 'pipelines.export.part.completed', 'export_id', export_id);
  return { done, lines: await readLines(svc, `${prefix}tree/project/ci_pipelines.ndjson`) };
}

describe('transfer.export.requested → pipelines part', () => {
  it('writes ci_pipelines.ndjson: each pipeline with its stages and builds nested as GitLab writes them', async () => {
    const project = world.project();
    await world.commit(project);
    const first = await world.pipeline(project);
    const second = await world.pipeline(project, 'main', { variables: [{ key: 'X', value: '1' }] });
    await world.as(world.users.developer, project).post(`/api/v4/projects/${project.id}/pipelines/${second.id}/cancel`).expect(200);
    const other = world.project();
    await world.commit(other);
    await world.pipeline(other);

    const { done, lines } = await exportProject(project.id);
    expect(done).toMatchObject({ project_id: project.id, part: 'pipelines', files: ['tree/project/ci_pipelines.ndjson'], counts: { ci_pipelines: 2, stages: 6, builds: 8 } });
    expect(lines.map((l) => l.iid)).toEqual([first.iid, second.iid]);
    const [one, two] = lines;
    expect(one).toMatchObject({ ref: 'main', sha: first.sha, status: first.status, source: 'api', project_id: project.id, tag: false, user_id: world.users.developer.id });
    expect(two.status).toBe('canceled');
    expect(one.stages.map((s: any) => [s.name, s.position, s.builds.map((b: any) => b.name)])).toEqual([
      ['build', 1, ['build']], ['test', 2, ['unit', 'lint']], ['deploy', 3, ['deploy']],
    ]);
    const jobs = await world.jobs(first.id);
    const build = one.stages[0].builds[0];
    expect(build).toMatchObject({ name: 'build', stage: 'build', stage_idx: 1, status: jobs.build.status, when: 'on_success', allow_failure: false, type: 'Ci::Build' });
    expect(one.stages[1].builds[1]).toMatchObject({ name: 'lint', allow_failure: true });
    expect(one.stages[2].builds[0]).toMatchObject({ name: 'deploy', when: 'manual', status: jobs.deploy.status });
    expect(one.stages[0].status).toBe(STATUS_ENUM[jobs.build.status as keyof typeof STATUS_ENUM]);
    const canceled = await world.jobs(second.id);
    expect(two.stages[0].status).toBe(STATUS_ENUM.canceled);
    expect(two.stages.flatMap((s: any) => s.builds.map((b: any) => [b.name, b.status]))).toEqual(Object.values(canceled).map((j) => [j.name, j.status]));
    for (const line of lines) expect(JSON.stringify(line)).not.toMatch(/token|trace/);
  });

  it('says the part is in progress with a pipelines.transfer.part.progressed heartbeat through its outbox', async () => {
    const project = world.project();
    await world.commit(project);
    await world.pipeline(project);
    const { done } = await exportProject(project.id);
    const beats = await svc.deps.db('outbox').where({ type: 'pipelines.transfer.part.progressed', producer: 'pipelines' }).whereRaw(`data->>'job_id' = ?`, [done.export_id]);
    expect(beats.length).toBeGreaterThanOrEqual(1);
    expect(beats[0].data).toEqual({ kind: 'export', job_id: done.export_id, service: 'pipelines', part: 'pipelines', at: expect.any(String) });
    const completed = await svc.deps.db('outbox').where({ type: 'pipelines.export.part.completed' }).whereRaw(`data->>'export_id' = ?`, [done.export_id]).first();
    expect(Date.parse(beats[0].data.at)).toBeLessThanOrEqual(new Date(completed.occurred_at).getTime());
  });

  it('writes an empty file for a project without pipelines', async () => {
    const { done, lines } = await exportProject(world.project().id);
    expect(done.counts).toEqual({ ci_pipelines: 0, stages: 0, builds: 0 });
    expect(lines).toEqual([]);
  });
});
