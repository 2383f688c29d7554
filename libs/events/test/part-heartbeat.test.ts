import type { Knex } from 'knex';
import { emit, outboxHeartbeat, type PartHeartbeat, transferPartProgressed, type TransferPartProgressedV1, withHeartbeat } from '../src';
import { gate, sleep, testSchema, waitFor } from './support/helpers';

describe('withHeartbeat', () => {
  let env: Awaited<ReturnType<typeof testSchema>>;
  let db: Knex;
  const job = { kind: 'import' as const, job_id: '42', service: 'work-items', part: 'work-items' };

  beforeAll(async () => {
    env = await testSchema('hb');
    db = env.db;
  });
  afterAll(async () => env?.drop());
  beforeEach(async () => db('outbox').del());

  const beats = async () => (await db('outbox').orderBy('id')) as { type: string; producer: string; data: TransferPartProgressedV1 }[];
  const every = (ms: number): PartHeartbeat => ({ publish: (d) => emit(db, 'work-items', transferPartProgressed('work-items'), d), intervalMs: ms });

  it('writes a heartbeat to the outbox at once and then every interval while the part runs, none after', async () => {
    const hold = gate();
    const running = withHeartbeat(every(50), job, async () => {
      await hold.promise;
      return 'done';
    });
    await waitFor(async () => (await beats()).length >= 4, 'four heartbeats');
    hold.open();
    expect(await running).toBe('done');
    await sleep(20);
    const written = await beats();
    await sleep(200);
    expect(await beats()).toHaveLength(written.length);
    expect(written[0]).toMatchObject({ type: 'work-items.transfer.part.progressed', producer: 'work-items', data: { ...job } });
    const times = written.map((b) => Date.parse(b.data.at));
    expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
  });

  it('keeps beating and lets the part finish when a publish fails', async () => {
    let calls = 0;
    const flaky: PartHeartbeat = { publish: async (d) => ((calls += 1) % 2 ? Promise.reject(new Error('broker down')) : emit(db, 'pipelines', transferPartProgressed('pipelines'), d)), intervalMs: 30 };
    await expect(withHeartbeat(flaky, job, () => sleep(250).then(() => 7))).resolves.toBe(7);
    expect(calls).toBeGreaterThanOrEqual(4);
    await sleep(20);
    expect((await beats()).length).toBe(Math.floor(calls / 2));
  });

  it('stops beating when the part throws, and passes the error on', async () => {
    await expect(withHeartbeat(every(30), job, async () => {
      await sleep(100);
      throw new Error('line 3 is broken');
    })).rejects.toThrow('line 3 is broken');
    await sleep(20);
    const n = (await beats()).length;
    expect(n).toBeGreaterThanOrEqual(2);
    await sleep(150);
    expect(await beats()).toHaveLength(n);
  });

  it('beats every TRANSFER_HEARTBEAT_SECONDS of the service config, 60 by default', () => {
    expect(outboxHeartbeat(db, 'identity', { TRANSFER_HEARTBEAT_SECONDS: 2 }).intervalMs).toBe(2000);
    expect(outboxHeartbeat(db, 'identity', {}).intervalMs).toBe(60_000);
  });
});
