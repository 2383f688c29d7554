/**
 * One-shot job: creates the S3 bucket the fleet stores files in (docker-compose's `create-bucket`).
 * Reads the same STORAGE_DRIVER / S3_* variables as the services; retries while the store starts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, serviceSchema } from '@anvil/config';
import { S3Storage, createStorage, prepareStorage } from '@anvil/storage';

const ATTEMPTS = 30;

/** Creates the bucket, retrying for up to ~a minute; resolves once it exists. */
export async function ensureBucket(env: Record<string, string | undefined> = process.env): Promise<void> {
  const config = loadConfig(serviceSchema, env);
  const storage = createStorage(config);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await prepareStorage(storage);
        return;
      } catch (e) {
        if (attempt >= ATTEMPTS) throw e;
        await sleep(2000);
      }
    }
  } finally {
    if (storage instanceof S3Storage) storage.destroy();
  }
}

if (require.main === module) {
  ensureBucket().then(
    () => process.stdout.write('bucket ready\n'),
    (e: unknown) => {
      process.stderr.write(`create-bucket failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
