import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emit } from '@anvil/events';
import { startService, type TestService, uniqueName } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { PipelinesWorld } from '../support/pipelines';

/** The pipelines service on RabbitMQ (when reachable) and a storage directory of its own. */
export async function startTransferPipelines(): Promise<{ svc: TestService; world: PipelinesWorld; stop: () => Promise<void> }> {
  const storageDir = mkdtempSync(path.join(tmpdir(), 'anvil-pipelines-transfer-'));
  const svc = await startService(pipelinesService, { amqp: true, env: { EVENTS_EXCHANGE: `${uniqueName('pxfer')}.events`, STORAGE_DIR: storageDir } });
  return {
    svc, world: new PipelinesWorld(svc),
    async stop() {
      await svc.stop();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/** Publishes `type` as project-transfer would, then waits for the outbox event of `replyType` whose `key` is `value`. */
export async function request(svc: TestService, type: string, data: Record<string, unknown>, replyType: string, key: string, value: string | number): Promise<any> {
  await emit(svc.deps.db, 'project-transfer', type, data);
  const until = Date.now() + 15_000;
  for (;;) {
    const row = await svc.deps.db('outbox').where({ type: replyType }).whereRaw(`data->>'${key}' = ?`, [String(value)]).first();
    if (row) return row.data;
    if (Date.now() > until) throw new Error(`${replyType} not published in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The ndjson lines of a stored file. */
export async function readLines(svc: TestService, key: string): Promise<Record<string, any>[]> {
  const stream = await svc.deps.storage.get(key);
  if (!stream) throw new Error(`${key} is not stored`);
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
