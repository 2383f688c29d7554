import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { HttpError } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import { checkMetadata, REMOTE_FILE_SIZE_LIMIT, storeLimited } from './remote-file';

/** Where and how `POST /projects/remote-import-s3` reads the archive. */
export interface S3FileRequest {
  region: string;
  bucketName: string;
  fileKey: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** How the S3 object is fetched: `endpoint` empty means AWS itself. */
export interface S3FileOptions {
  endpoint: string;
  /** `max_import_size` in bytes (0: GitLab's 10 GB). */
  maxBytes: number;
}

const refuse = (message: string) => new HttpError(400, { message });

function isNotFound(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404;
}

/**
 * GitLab's `RemoteFileS3` strategy: the object is probed with the caller's credentials (missing:
 * "File not found", other failures: "Failed to open"), its length and content type checked as for
 * `remote-import`, then its body streamed into storage under the same byte limit. Answers the key.
 */
export async function fetchS3Archive(storage: Storage, req: S3FileRequest, opts: S3FileOptions): Promise<string> {
  const client = new S3Client({
    region: req.region,
    credentials: { accessKeyId: req.accessKeyId, secretAccessKey: req.secretAccessKey },
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
  });
  const where = `'${req.fileKey}' in '${req.bucketName}'`;
  try {
    let head;
    try {
      head = await client.send(new HeadObjectCommand({ Bucket: req.bucketName, Key: req.fileKey }));
    } catch (e) {
      throw isNotFound(e) ? refuse(`File not found ${where}`) : refuse(`Failed to open ${where}: ${(e as Error).message || (e as Error).name}`);
    }
    checkMetadata(Number(head.ContentLength ?? 0), String(head.ContentType ?? ''), opts.maxBytes);
    let body: Readable;
    try {
      body = (await client.send(new GetObjectCommand({ Bucket: req.bucketName, Key: req.fileKey }))).Body as Readable;
    } catch (e) {
      throw refuse(`Failed to open ${where}: ${(e as Error).message || (e as Error).name}`);
    }
    return await storeLimited(storage, body, opts.maxBytes > 0 ? opts.maxBytes : REMOTE_FILE_SIZE_LIMIT);
  } finally {
    client.destroy();
  }
}
