import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { S3Storage, type S3StorageOptions } from '../src';
import { startS3rver, type S3rverProcess } from './s3rver-process';
import { bodyOf, storageSuite } from './suite';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

let server: S3rverProcess;
const clients: S3Storage[] = [];
let buckets = 0;

function options(bucket: string): S3StorageOptions {
  return {
    endpoint: server.endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
}

/** A client on a new, empty bucket (created through ensureBucket). */
async function freshStorage(): Promise<S3Storage> {
  const storage = new S3Storage(options(`anvil-test-${++buckets}`));
  clients.push(storage);
  await storage.ensureBucket();
  return storage;
}

beforeAll(async () => {
  server = await startS3rver();
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

describe('S3Storage', () => {
  // A multipart upload holds up to partSize * queueSize (8 MiB * 4) plus lib-storage's copy of the part
  // being cut, and V8 frees those buffers lazily, so growth is a fixed ~80-120 MiB whatever the object's
  // size (a 50 MiB object proves nothing); a 512 MiB object shows it stays far below the object.
  storageSuite(freshStorage, { objectMiB: 512, maxRssGrowthMiB: 192 });
});

describe('S3Storage.ensureBucket', () => {
  it('creates a missing bucket and accepts an existing one', async () => {
    const storage = new S3Storage(options('anvil-ensure'));
    clients.push(storage);
    await expect(storage.client.send(new HeadBucketCommand({ Bucket: 'anvil-ensure' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
    await storage.ensureBucket();
    await storage.ensureBucket();
    await storage.put('k', bodyOf('v'));
    expect(await storage.head('k')).toMatchObject({ size: 1 });
  });

  it('fails loudly, not with null, when the bucket does not exist', async () => {
    const storage = new S3Storage(options('anvil-never-created'));
    clients.push(storage);
    await expect(storage.get('k')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });
});
