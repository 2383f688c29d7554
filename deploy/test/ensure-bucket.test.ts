import { Readable } from 'node:stream';
import { S3Storage } from '@anvil/storage';
import { ensureBucket } from '../scripts/ensure-bucket';
import { startS3rver, type S3rverProcess } from '../../libs/storage/test/s3rver-process';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

let server: S3rverProcess;
beforeAll(async () => {
  server = await startS3rver();
});
afterAll(async () => {
  await server.stop();
});

describe('deploy/scripts/ensure-bucket.ts (compose create-bucket)', () => {
  it('creates the configured bucket, and succeeds again when it exists', async () => {
    const env = {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: server.endpoint,
      S3_BUCKET: 'compose-bucket',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    };
    const probe = new S3Storage({ endpoint: server.endpoint, bucket: 'compose-bucket', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    try {
      await expect(probe.get('k')).rejects.toMatchObject({ name: 'NoSuchBucket' });
      await ensureBucket(env);
      await ensureBucket(env);
      await probe.put('k', Readable.from([Buffer.from('v')]));
      expect(await probe.head('k')).toMatchObject({ size: 1 });
    } finally {
      probe.destroy();
    }
  });

  it('rejects a bad S3 setting by name instead of retrying', async () => {
    await expect(ensureBucket({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'not a url' })).rejects.toThrow('S3_ENDPOINT');
  });
});
