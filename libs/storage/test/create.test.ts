import { spawnSync } from 'node:child_process';
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
        S3_SECRET_ACCESS_KEY: 'test-secret-key',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ) as S3Storage;
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.bucket).toBe('files');
    expect(await storage.client.config.region()).toBe('eu-west-1');
    expect(storage.client.config.forcePathStyle).toBe(true);
    expect(await storage.client.config.credentials()).toMatchObject({ accessKeyId: 'id', secretAccessKey: 'test-secret-key' });
    storage.destroy();
  });

  it('loads the AWS SDK only when an S3 store is made (local storage does not pay for it)', () => {
    const count = (make: string) => {
      const script = `const s = require('./src'); ${make}; console.log(Object.keys(require.cache).filter((k) => k.includes('@aws-sdk')).length)`;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '..'), encoding: 'utf8', env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } });
      expect(r.status).toBe(0);
      return Number(r.stdout.trim());
    };
    expect(count(`new s.LocalStorage('${os.tmpdir()}')`)).toBe(0);
    expect(count(`new s.S3Storage({ bucket: 'b', region: 'us-east-1' })`)).toBeGreaterThan(0);
  }, 30_000);
});
