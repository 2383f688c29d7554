import { bootService, type RunningService } from '@anvil/runtime';
import { TEST_INTERNAL_TOKEN, testAmqpUrl, testDatabaseUrl, testKeys } from '@anvil/testing';
import { projectTransferService } from '../src';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

let fleet: TransferFleet;
let worker: RunningService | undefined;

beforeAll(async () => {
  fleet = await startTransferFleet({ ROLE: 'api', TRANSFER_SWEEP_INTERVAL_SECONDS: '1', TRANSFER_STALL_SECONDS: '1' });
});
afterAll(async () => {
  await worker?.stop();
  await fleet?.stop();
});

const startWorker = () => {
  const schema = fleet.transfer.deps.schema;
  return bootService(projectTransferService, {
    schema, port: 0, queuePrefix: `${schema}.`,
    env: {
      DATABASE_URL: testDatabaseUrl(), AMQP_URL: testAmqpUrl(), EVENTS_EXCHANGE: fleet.exchange, STORAGE_DIR: fleet.storageDir,
      GATEWAY_PUBLIC_KEY: testKeys.publicKey, INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN, IDENTITY_URL: fleet.identity.url, LOG_LEVEL: 'silent', ROLE: 'worker',
      TRANSFER_SWEEP_INTERVAL_SECONDS: '1', TRANSFER_STALL_SECONDS: '1',
    },
  });
};

describe('ROLE=api and ROLE=worker', () => {
  it('leaves the export parts to the worker: queued while no worker runs, finished once one does', async () => {
    // a worker declared its durable queue once, then stopped
    await (await startWorker()).stop();

    const owner = await fleet.makeUser();
    const project = await fleet.makeProject(owner);
    const scope = await fleet.scope(project.id, owner);
    await fleet.transfer.as({ user: owner, project: scope }).post(`/api/v4/projects/${project.id}/export`).expect(202);
    const status = async () => (await fleet.transfer.as({ user: owner, project: scope }).get(`/api/v4/projects/${project.id}/export`)).body.export_status;
    // both parts are written and reported, but the API process consumes no reports
    await eventually(async () => (await fleet.workItems.deps.db('outbox').where({ type: 'work-items.export.part.completed' }).whereNotNull('published_at')).length > 0);
    await eventually(async () => (await fleet.identity.deps.db('outbox').where({ type: 'identity.export.part.completed' }).whereNotNull('published_at')).length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await status()).toBe('queued');

    worker = await startWorker();
    await eventually(async () => (await status()) === 'finished');
  });

  it('leaves the stuck-job sweep to the worker: the API process re-drives no stalled job', async () => {
    await worker?.stop();
    worker = undefined;
    const owner = await fleet.makeUser();
    const project = await fleet.makeProject(owner);
    await fleet.transfer.as({ user: owner, project: await fleet.scope(project.id, owner) }).post(`/api/v4/projects/${project.id}/export`).expect(202);
    const db = fleet.transfer.deps.db;
    const row = await db('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
    await db('project_exports').where({ id: row.id }).update({ updated_at: db.raw("now() - interval '1 minute'") });
    await new Promise((r) => setTimeout(r, 2500));
    expect(await db('project_exports').where({ id: row.id }).first()).toMatchObject({ job_status: 'queued', redrives: 0 });

    worker = await startWorker();
    await eventually(async () => (await db('project_exports').where({ id: row.id }).first()).job_status === 'finished');
  });
});
