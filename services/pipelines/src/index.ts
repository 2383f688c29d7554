import type { ServiceDefinition } from '@anvil/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { configSchema } from './config';
import { startDelayedScheduler, stopDelayedScheduler } from './jobs/delayed-scheduler';
import { pipelineProjectConsumer } from './pipelines/project-consumer';
import { repositoryProjectConsumer } from './repository/project-consumer';
import { exportConsumer } from './transfer/export-consumer';
import { importConsumer } from './transfer/import-consumer';
import { relationImportConsumer } from './transfer/relation-import-consumer';
import { stopQueueWaker } from './runners/job-queue-waker';

/** The pipelines service, as the runtime boots it. */
export const pipelinesService: ServiceDefinition = {
  name: 'pipelines',
  defaultPort: 7105,
  migrations,
  configSchema,
  createApp,
  consumers: (deps) => [repositoryProjectConsumer(deps), pipelineProjectConsumer(deps), exportConsumer(deps), importConsumer(deps), relationImportConsumer(deps)],
  onStart: async (deps) => startDelayedScheduler(deps.db, deps.log),
  onStop: async (deps) => {
    stopDelayedScheduler(deps.db);
    await stopQueueWaker(deps.directDb);
  },
};
export { configSchema };
