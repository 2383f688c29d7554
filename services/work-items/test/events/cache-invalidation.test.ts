import { randomUUID } from 'node:crypto';
import { createBus, ManagedEventBus } from '@anvil/events';
import { startService, TestService, testAmqpUrl } from '@anvil/testing';
import { workItemsService } from '../../src';
import { currentGeneration } from '../../src/db/freshness';

describe('cache invalidation across replicas (RabbitMQ)', () => {
  let svc: TestService;
  let other: ManagedEventBus;
  beforeAll(async () => {
    svc = await startService(workItemsService, { amqp: true });
    other = createBus(testAmqpUrl());
  });
  afterAll(async () => {
    await other?.close();
    await svc?.stop();
  });

  it('moves the data generation when another replica publishes a work-items event', async () => {
    const before = currentGeneration();
    await other.publish({ id: randomUUID(), type: 'work-items.issue.updated', occurred_at: new Date().toISOString(), producer: 'work-items', version: 1, data: { id: 0 } });
    const until = Date.now() + 5000;
    while (currentGeneration() === before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(currentGeneration()).toBeGreaterThan(before);
  });
});
