import { type Fleet, type PrivateServer, privateRabbit, startFleet } from '@anvil/testing';
import { userWithToken } from './support/fleet-api';
import { archives, download, exportEnded, partFile, schemaDb, seededProject, until } from './support/transfer-data';

/**
 * A project export over a RabbitMQ node of the test's own, restarted while work-items writes its
 * part: queues and messages are durable, the outbox relays reconnect and the consumers attach again,
 * so the export finishes with every record once.
 */
describe('project export survives a RabbitMQ restart', () => {
  let rabbit: PrivateServer;
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let source: { id: number };
  const COPIES = 3000;

  beforeAll(async () => {
    rabbit = await privateRabbit();
    fleet = await startFleet({
      services: ['identity', 'work-items', 'project-transfer'],
      amqpUrl: rabbit.url,
      env: { EXPORT_PARTS: 'identity,work-items', PROJECT_EXPORT_LIMIT: '0', PROJECT_DOWNLOAD_EXPORT_LIMIT: '0' },
    });
    owner = await userWithToken(fleet, 'brokered');
    source = await seededProject(fleet, owner.token, 'brokered', COPIES);
  }, 150_000);
  afterAll(async () => {
    await fleet?.stop();
    await rabbit?.stop();
  }, 60_000);

  it('restarted while work-items writes its part: the export finishes and the archive has every issue and note once', async () => {
    const res = await fetch(`${fleet.url}/api/v4/projects/${source.id}/export`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(res.status).toBe(202);
    const db = schemaDb(fleet, 'project-transfer');
    let job: any;
    try {
      job = await until('the export job', async () => db('project_exports').where({ project_id: source.id }).first(), 10_000, 20);
    } finally {
      await db.destroy();
    }
    await until('work-items to start its part', async () => partFile(fleet, job.job_id, 'tree/project/labels.ndjson'), 30_000, 5);
    expect(partFile(fleet, job.job_id, 'tree/project/issues.ndjson')).toBe(false);
    await rabbit.restart();
    const status = await exportEnded(fleet, owner.token, source.id);
    expect(status.export_status).toBe('finished');
    const { names, ndjson } = await download(fleet, owner.token, source.id);
    expect(new Set(names).size).toBe(names.length);
    expect(ndjson.issues).toHaveLength(COPIES + 1);
    expect(new Set(ndjson.issues.map((i) => i.iid)).size).toBe(COPIES + 1);
    expect(ndjson.issues.reduce((n, i) => n + i.notes.length, 0)).toBe(2 * (COPIES + 1));
    expect(ndjson.project_members.length).toBeGreaterThan(0);
    expect(archives(fleet)).toEqual([`${job.job_id}.tar.gz`]);
  }, 90_000);
});
