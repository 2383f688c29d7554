import os from 'node:os';
import path from 'node:path';
import { loadConfig, serviceSchema } from '@anvil/config';
import { LocalStorage, S3Storage, createStorage } from '../src';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

describe('createStorage', () => {
  it('builds a LocalStorage on STORAGE_DIR by default', () => {
    const dir = path.join(os.tmpdir(), 'anvil-create-test');
    const storage = createStorage(loadConfig(serviceSchema, { STORAGE_DIR: dir }));
    expect(storage).toBeInstanceOf(LocalStorage);
    expect((storage as LocalStorage).root).toBe(dir);
  });

  it('builds an S3Storage from the S3_* settings', async () => {
    const storage = createStorage(
      loadConfig(serviceSchema, {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_BUCKET: 'files',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ) as S3Storage;
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.bucket).toBe('files');
    expect(await storage.client.config.region()).toBe('eu-west-1');
    expect(storage.client.config.forcePathStyle).toBe(true);
    expect(await storage.client.config.credentials()).toMatchObject({ accessKeyId: 'id', secretAccessKey: 'secret' });
    storage.destroy();
  });
});
