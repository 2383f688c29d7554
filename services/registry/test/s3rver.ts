import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// s3rver ships no types; it is only used in tests, as a local S3 endpoint on a random port.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (o: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

/** A local S3 endpoint (s3rver) on a free port, and the registry settings that use it with a fresh bucket. */
export async function startS3(bucketPrefix: string): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), `anvil-${bucketPrefix}-`));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port } = await server.run();
  return {
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: `${bucketPrefix}-${Date.now().toString(36)}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
