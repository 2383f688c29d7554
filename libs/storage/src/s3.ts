import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { DigestStream, feedDigest } from './digest';
import { InvalidKeyError, validateKey, validatePrefix } from './keys';
import type { Receipt } from './local-receive';
import type { ObjectInfo, OpenedObject, PutOptions, ReceiveOptions, Storage } from './types';

type ClientS3 = typeof import('@aws-sdk/client-s3');
type LibStorage = typeof import('@aws-sdk/lib-storage');
let loaded: { s3: ClientS3; lib: LibStorage } | null = null;

/**
 * The AWS SDK, loaded on first use: it costs about 20 MB of memory, which a process on local storage
 * (every service imports this library) should not pay.
 */
function sdk(): { s3: ClientS3; lib: LibStorage } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= { s3: require('@aws-sdk/client-s3') as ClientS3, lib: require('@aws-sdk/lib-storage') as LibStorage };
  return loaded;
}

/** Connection settings for an S3-compatible store (AWS, MinIO, s3rver). */
export interface S3StorageOptions {
  /** e.g. `http://127.0.0.1:9000`; omit for AWS itself. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Omit both keys to use the SDK's default credential chain (instance role, env, profile). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `true` for MinIO and s3rver (`http://host/bucket/key` instead of `http://bucket.host/key`). */
  forcePathStyle?: boolean;
  /** Multipart part size in bytes (default 8 MiB); an upload buffers at most partSize * queueSize. */
  partSize?: number;
  /** Parts uploaded in parallel (default 4). */
  queueSize?: number;
}

/** Default multipart part size. */
export const S3_PART_SIZE = 8 * 1024 * 1024;
/** Default number of parts in flight. */
export const S3_QUEUE_SIZE = 4;

interface AwsError {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** True for "this object (or bucket, on HEAD) does not exist". */
function isNotFound(e: unknown): boolean {
  const err = e as AwsError;
  const name = err?.name ?? err?.Code;
  if (name === 'NoSuchKey' || name === 'NotFound') return true;
  return err?.$metadata?.httpStatusCode === 404 && name !== 'NoSuchBucket';
}

/**
 * Objects in one S3 bucket. Puts stream through a multipart upload (at most partSize * queueSize bytes
 * buffered, whatever the object's size); S3 makes each put atomic. Keys follow the same rules as the
 * local driver, so the two are interchangeable.
 */
export class S3Storage implements Storage {
  /** The underlying client, for callers that need presigned URLs or other S3-only features. */
  readonly client: S3Client;
  readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(opts: S3StorageOptions) {
    const credentials =
      opts.accessKeyId && opts.secretAccessKey
        ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
        : undefined;
    this.client = new (sdk().s3.S3Client)({
      endpoint: opts.endpoint,
      region: opts.region,
      credentials,
      forcePathStyle: opts.forcePathStyle ?? false,
    });
    this.bucket = opts.bucket;
    this.partSize = opts.partSize ?? S3_PART_SIZE;
    this.queueSize = opts.queueSize ?? S3_QUEUE_SIZE;
  }

  /** Creates the bucket unless it already exists. */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new (sdk().s3.HeadBucketCommand)({ Bucket: this.bucket }));
      return;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    try {
      await this.client.send(new (sdk().s3.CreateBucketCommand)({ Bucket: this.bucket }));
    } catch (e) {
      const name = (e as AwsError).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw e;
    }
  }

  async put(key: string, body: Readable, opts?: PutOptions): Promise<{ size: number }> {
    validateKey(key);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const upload = new (sdk().lib.Upload)({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter, ContentType: opts?.contentType },
      partSize: this.partSize,
      queueSize: this.queueSize,
    });
    const uploaded = upload.done().catch((e: unknown) => {
      counter.destroy(e as Error);
      throw e;
    });
    await Promise.all([pipeline(body, counter), uploaded]);
    return { size };
  }

  async get(key: string): Promise<Readable | null> {
    return (await this.read(key))?.body ?? null;
  }

  async read(key: string): Promise<{ body: Readable; size: number } | null> {
    validateKey(key);
    try {
      const out = await this.client.send(new (sdk().s3.GetObjectCommand)({ Bucket: this.bucket, Key: key }));
      return { body: out.Body as Readable, size: out.ContentLength ?? 0 };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  /** Server-side copy, then delete of the source (S3 has no rename); a missing source is an error. */
  async move(from: string, to: string): Promise<void> {
    validateKey(from);
    validateKey(to);
    const source = `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(new (sdk().s3.CopyObjectCommand)({ Bucket: this.bucket, Key: to, CopySource: source }));
    await this.client.send(new (sdk().s3.DeleteObjectCommand)({ Bucket: this.bucket, Key: from }));
  }

  async head(key: string): Promise<ObjectInfo | null> {
    validateKey(key);
    try {
      const out = await this.client.send(new (sdk().s3.HeadObjectCommand)({ Bucket: this.bucket, Key: key }));
      return { key, size: out.ContentLength ?? 0, lastModified: out.LastModified };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    validateKey(key);
    await this.client.send(new (sdk().s3.DeleteObjectCommand)({ Bucket: this.bucket, Key: key }));
  }

  /** As `delete`: once S3 answered, readers no longer find the object. */
  async retire(key: string): Promise<void> {
    await this.delete(key);
  }

  /** Deletes every object whose key starts with `prefix`, 1000 per request; an empty prefix is refused. */
  async deletePrefix(prefix: string): Promise<void> {
    validatePrefix(prefix);
    if (prefix === '') throw new InvalidKeyError(prefix, 'refusing to delete every object');
    let batch: string[] = [];
    for await (const o of this.list(prefix)) {
      batch.push(o.key);
      if (batch.length === 1000) {
        await this.deleteBatch(batch);
        batch = [];
      }
    }
    if (batch.length) await this.deleteBatch(batch);
  }

  private async deleteBatch(keys: string[]): Promise<void> {
    const out = await this.client.send(
      new (sdk().s3.DeleteObjectsCommand)({
        Bucket: this.bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    const failed = out.Errors ?? [];
    if (failed.length) {
      throw new Error(`S3 DeleteObjects failed for ${failed.length} keys, first ${failed[0].Key}: ${failed[0].Code} ${failed[0].Message}`);
    }
  }

  /** Every object whose key starts with `prefix`, in S3's key order (UTF-8 bytes), one ListObjectsV2 page at a time. */
  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    validatePrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new (sdk().s3.ListObjectsV2Command)({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key !== undefined) yield { key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The body piped through a DigestStream into `put` (a multipart upload). */
  receive(key: string, body: Readable, opts: ReceiveOptions): Receipt {
    const digest = new DigestStream(opts.limit, 0, opts.expectedSize);
    const detach = feedDigest(body, digest);
    const done = (async () => {
      try {
        await this.put(key, digest, { fresh: true });
        return await digest.digests();
      } finally {
        detach();
      }
    })();
    return {
      done,
      limit: (n) => digest.setLimit(n),
      cancel: () => {
        detach();
        digest.destroy(new Error('cancelled'));
      },
    };
  }

  /** The object's stream, piped into the destination when sent. */
  async open(key: string): Promise<OpenedObject | null> {
    const obj = await this.read(key);
    if (!obj) return null;
    return {
      size: obj.size,
      sendTo: (dest) => pipeline(obj.body, dest),
      close: async () => {
        obj.body.destroy();
      },
    };
  }

  /** Creates the bucket unless it exists (`ensureBucket`). */
  async prepare(): Promise<void> {
    await this.ensureBucket();
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}
