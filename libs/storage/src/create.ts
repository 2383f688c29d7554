import type { ConfigOf, serviceSchema } from '@anvil/config';
import { LocalStorage } from './local';
import { S3Storage } from './s3';
import type { Storage } from './types';

/** The storage settings of `serviceSchema` (`STORAGE_DRIVER`, `STORAGE_DIR`, `STORAGE_FSYNC`, `S3_*`). */
export type StorageConfig = Pick<
  ConfigOf<typeof serviceSchema>,
  | 'STORAGE_DRIVER'
  | 'STORAGE_DIR'
  | 'STORAGE_FSYNC'
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** Builds the driver the configuration names: a LocalStorage on STORAGE_DIR, or an S3Storage. */
export function createStorage(config: StorageConfig): LocalStorage | S3Storage {
  if (config.STORAGE_DRIVER === 's3') {
    return new S3Storage({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage(config.STORAGE_DIR, { fsync: config.STORAGE_FSYNC });
}

/** Call once at startup: the driver's own start-up work (`Storage.prepare`). */
export async function prepareStorage(storage: Storage): Promise<void> {
  await storage.prepare();
}
